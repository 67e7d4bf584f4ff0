/// One thing to fuzz: a name (its corpus folder under Tests/FuzzCorpus) and a body that feeds one
/// input to a reader. The body must return normally for every input: a thrown error is the
/// expected answer to a hostile file and is swallowed by the body itself; a trap, a sanitizer
/// report or an allocation beyond the fuzzer's limit is a finding.
struct FuzzTarget {
    /// The target's name, as FUZZ_TARGET and the corpus folder spell it.
    let name: String
    /// False for code that leaves threads finishing after it returns: libFuzzer's leak check after
    /// each input then races with them. Leaks are still checked once, when the process exits.
    var checksLeaksPerInput = true
    /// Feeds one input to the code under test.
    let run: (UnsafeBufferPointer<UInt8>) -> Void

    init(name: String, checksLeaksPerInput: Bool = true, run: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.name = name
        self.checksLeaksPerInput = checksLeaksPerInput
        self.run = run
    }
}
