/// The table of ProcessList elements: the one place that lists what a CLF or CTF may hold, each
/// with its reader. An element not in it is skipped, as OpenColorIO skips it, and named in the
/// look's notes (`CLFNodeReader`); a new kind is a new `CLFElement` and one more line here.
enum CLFElements {
    /// Every element, each once: CLF's operators, OpenColorIO's CTF operators (with the
    /// versions that have them), then the metadata.
    static let list: [any CLFElement] = [
        LUT1DElement(),
        LUT3DElement(),
        MatrixElement(),
        RangeElement(),
        LogElement(),
        ExponentElement(name: "Exponent"),
        // OpenColorIO's CTF name for an Exponent, which it reads in a CLF too.
        ExponentElement(name: "Gamma"),
        CDLElement(),
        FixedFunctionElement(name: "ACES", ctfOperator: CTFOperator(since: (1, 5, 0), inCLF: true)),
        ExposureContrastElement(),
        FixedFunctionElement(name: "FixedFunction", ctfOperator: CTFOperator(since: (2, 0, 0), inCLF: false)),
        FixedFunctionElement(name: "Function", ctfOperator: CTFOperator(since: (1, 6, 0), inCLF: false)),
        GradingHueCurveElement(),
        GradingPrimaryElement(),
        GradingRGBCurveElement(),
        GradingToneElement(),
        InverseLUT1DElement(),
        InverseLUT3DElement(),
        ReferenceElement(),
        MetadataElement(name: "Description"),
        MetadataElement(name: "InputDescriptor"),
        MetadataElement(name: "OutputDescriptor"),
        MetadataElement(name: "Info"),
        IdElement(),
    ]

    /// The elements by lower-case name: OpenColorIO matches element names without regard to case.
    static let all: [String: any CLFElement] = Dictionary(uniqueKeysWithValues: list.map { ($0.name.lowercased(), $0) })

    /// The reader of the element called `name` (any case), or nil for one neither format defines.
    static func named(_ name: String) -> (any CLFElement)? {
        all[name.lowercased()]
    }
}
