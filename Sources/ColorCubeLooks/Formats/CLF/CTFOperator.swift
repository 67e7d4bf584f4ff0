/// The rules OpenColorIO 2.6 reads one of its CTF operators beyond CLF's own by: the first CTF
/// version that has it, and whether a file read as a CLF (one that states a `compCLFversion` or
/// the SMPTE namespace, whatever its extension) may hold it. Each operator's reader
/// (`CLFElement.ctfOperator`) carries its rules.
struct CTFOperator: Sendable {
    /// The first CTF version with the operator; (0, 0, 0) for every version.
    let since: (Int, Int, Int)
    /// Whether a file read as a CLF may hold it: OpenColorIO reads `ACES` and `Reference` there.
    let inCLF: Bool
}
