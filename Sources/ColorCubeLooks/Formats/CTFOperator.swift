/// An operator of OpenColorIO's CTF format beyond CLF's own, with the rules OpenColorIO 2.6
/// reads it by: the first CTF version that has it, and whether a file read as a CLF (one that
/// states a `compCLFversion` or the SMPTE namespace, whatever its extension) may hold it.
struct CTFOperator: Sendable {
    /// The element name as OpenColorIO spells it (it matches names without regard to case).
    let name: String
    /// The first CTF version with the operator; (0, 0, 0) for every version.
    let since: (Int, Int, Int)
    /// Whether a file read as a CLF may hold it: OpenColorIO reads `ACES` and `Reference` there.
    let inCLF: Bool

    /// The operators by lower-case name. `Gamma`, OpenColorIO's CTF name for an Exponent, is
    /// read with CLF's operators, as OpenColorIO reads it in a CLF too.
    static let all: [String: CTFOperator] = Dictionary(uniqueKeysWithValues: [
        CTFOperator(name: "ACES", since: (1, 5, 0), inCLF: true),
        CTFOperator(name: "ExposureContrast", since: (0, 0, 0), inCLF: false),
        CTFOperator(name: "FixedFunction", since: (2, 0, 0), inCLF: false),
        CTFOperator(name: "Function", since: (1, 6, 0), inCLF: false),
        CTFOperator(name: "GradingHueCurve", since: (2, 5, 0), inCLF: false),
        CTFOperator(name: "GradingPrimary", since: (2, 0, 0), inCLF: false),
        CTFOperator(name: "GradingRGBCurve", since: (2, 0, 0), inCLF: false),
        CTFOperator(name: "GradingTone", since: (2, 0, 0), inCLF: false),
        CTFOperator(name: "InverseLUT1D", since: (1, 3, 0), inCLF: false),
        CTFOperator(name: "InverseLUT3D", since: (1, 6, 0), inCLF: false),
        CTFOperator(name: "Reference", since: (0, 0, 0), inCLF: true),
    ].map { ($0.name.lowercased(), $0) })
}
