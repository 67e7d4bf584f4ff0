#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import _CFuzzerDriver

/// The harness's main: picks the target named by FUZZ_TARGET and hands libFuzzer the command line.
/// Without FUZZ_TARGET (or with FUZZ_TARGET=list) it prints the target names, one a line.
///
/// The program has its own main (SwiftPM links every executable's entry point as `main`), so the
/// fuzzer runtime's main is not used: LLVMFuzzerRunDriver is the same driver, called from here.
@main
enum FuzzEntry {
    /// The target this process fuzzes; set once, before the driver starts.
    nonisolated(unsafe) static var selected: FuzzTarget?

    static func main() {
        let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? "list"
        guard let target = FuzzTargets.named(name) else {
            if name != "list" { fputs("fuzz: unknown FUZZ_TARGET \(name); the targets are:\n", stderr) }
            for target in FuzzTargets.all { print(target.name) }
            exit(name == "list" ? 0 : 2)
        }
        selected = target
        // The fuzzer's flags are its command line: a flag the target needs is added to it. The
        // strings live until exit.
        var arguments = (0..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] }
        if !target.checksLeaksPerInput { arguments.append(strdup("-detect_leaks=0")) }
        arguments.append(nil)
        var argc = Int32(arguments.count - 1)
        let vector = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count)
        vector.initialize(from: arguments, count: arguments.count)
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = vector
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzEntry.selected?.run(UnsafeBufferPointer(start: data, count: size))
            return 0
        })
    }
}
