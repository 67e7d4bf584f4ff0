import ColorCubeCore
import ColorCubeTransform

/// A `Log`: CLF 3's log styles, and the Cineon parameters of earlier CTFs.
struct LogElement: CLFElement {
    var name: String { "Log" }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.log(node)]
    }
}

extension CLFNodeReader {
    /// A Log. The basic styles (log10, log2 and their antilogs) take no parameters: their
    /// LogParams are ignored unread, as OpenColorIO ignores them, base and all. The parametric
    /// styles take one base for all channels (2 when none is given); `linSideBreak` and
    /// `linearSlope` belong to the camera styles, and a `linearSlope` of 0 is a flat line.
    fileprivate mutating func log(_ node: XMLElementTree) throws(LUTFileError) -> LogOp {
        let name = try style(node)
        guard let style = LogOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of \(LogOp.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try checkLogVersion(node, style)
        let elements = parameters(node, "LogParams")
        guard style.takesParameters else {
            if let first = elements.first {
                notes.append("line \(first.line): the LogParams of the \(name) <\(node.name)> are ignored, as OpenColorIO "
                    + "ignores them: the style takes no parameters (its base is \(name.hasSuffix("2") ? 2 : 10))")
            }
            do throws(TransformError) {
                return try LogOp(style: style)
            } catch {
                throw fail(node, error.description)
            }
        }
        if let cineon = try cineonParameters(node, style: style, elements) {
            do throws(TransformError) {
                return try LogOp(style: style, base: 10, parameters: cineon)
            } catch {
                throw fail(node, error.description)
            }
        }
        var parameters = Array(repeating: LogOp.Parameters(), count: 3)
        var bases: Set<Double> = []
        for element in elements {
            var p = LogOp.Parameters()
            p.logSideSlope = try number(element, "logSideSlope", default: 1)
            p.logSideOffset = try number(element, "logSideOffset", default: 0)
            p.linSideSlope = try number(element, "linSideSlope", default: 1)
            p.linSideOffset = try number(element, "linSideOffset", default: 0)
            p.linSideBreak = try optionalNumber(element, "linSideBreak")
            p.linearSlope = try optionalNumber(element, "linearSlope")
            if !style.isCamera, let extra = ["linSideBreak", "linearSlope"].first(where: { element.attribute($0) != nil }) {
                throw fail(element, "\(extra) is for the cameraLinToLog and cameraLogToLin styles; remove it from a \(name) Log")
            }
            bases.insert(try number(element, "base", default: 2))
            for channel in try channels(element) { parameters[channel] = p }
        }
        guard bases.count <= 1 else {
            throw fail(node, "its LogParams give different bases; one Log has one base")
        }
        do throws(TransformError) {
            return try LogOp(style: style, base: bases.first ?? 2, parameters: parameters)
        } catch {
            throw fail(node, error.description)
        }
    }

    /// Refuses a Log where OpenColorIO has none: in a file stating `compCLFversion` up to 2.0 or
    /// a pre-SMPTE `version` below 1.3, or a camera style before version 2.0 (whose LogParams then
    /// take the Cineon parameters alone, which do not define a camera log).
    private func checkLogVersion(_ node: XMLElementTree, _ style: LogOp.Style) throws(LUTFileError) {
        let advice = legacyVersion == nil ? "state compCLFversion=\"3.0\"" : "state version=\"2.0\""
        if readsAsCLF ? ctfVersion < (2, 0, 0) : ctfVersion < (1, 3, 0) {
            throw fail(node, "a file stating \(statedVersion) has no <\(node.name)> (it came with "
                + "\(readsAsCLF ? "CLF 3" : "version 1.3")): \(advice)")
        }
        if !readsAsCLF, ctfVersion < (2, 0, 0), style.isCamera {
            throw fail(node, "a file stating \(statedVersion) has no \(style.rawValue) Log (it came with version 2.0): \(advice)")
        }
    }

    /// The names of the Cineon parameters, in the order `LogOp.Parameters(cineon:)` takes them.
    private static let cineonNames = ["gamma", "refWhite", "refBlack", "highlight", "shadow"]

    /// A linToLog or logToLin Log of a pre-SMPTE file written with the Cineon parameters (gamma,
    /// refWhite, refBlack, highlight, shadow), as the LogParams of CTF files have them, each channel
    /// turned into the slopes and offsets of a base-10 log; nil when the Log is written otherwise.
    /// Before version 2.0 these are the only parameters read (others are skipped, as OpenColorIO
    /// skips them) and every channel needs all five; from 2.0 a LogParams that gives any of them is
    /// Cineon, and mixing them with CLF 3's parameters is refused.
    private mutating func cineonParameters(_ node: XMLElementTree, style: LogOp.Style,
                                           _ elements: [XMLElementTree]) throws(LUTFileError) -> [LogOp.Parameters]? {
        guard !readsAsCLF, !style.isCamera else { return nil }
        let early = ctfVersion < (2, 0, 0)
        let cineon = elements.filter { element in Self.cineonNames.contains { element.attribute($0) != nil } }
        guard early || !cineon.isEmpty else { return nil }
        let clfNames = ["logSideSlope", "logSideOffset", "linSideSlope", "linSideOffset", "base", "linSideBreak", "linearSlope"]
        var skipped: Set<String> = []
        var given: [[Double]?] = [nil, nil, nil]
        for element in elements {
            for name in clfNames where element.attribute(name) != nil {
                guard early else { throw fail(element, "\(name) is a CLF 3 parameter; a LogParams gives Cineon or CLF 3 parameters, not both") }
                skipped.insert(name)
            }
            var values: [Double] = []
            for name in Self.cineonNames { values.append(try number(element, name)) }
            for channel in try channels(element) { given[channel] = values }
        }
        if !skipped.isEmpty {
            notes.append("line \(node.line): \(skipped.sorted().joined(separator: ", ")) skipped, as OpenColorIO skips them: "
                + "a file stating \(statedVersion) gives a \(style.rawValue) Log the Cineon parameters alone")
        }
        var parameters: [LogOp.Parameters] = []
        for (channel, values) in given.enumerated() {
            guard let values else {
                throw missing(node, "the Cineon LogParams for \(["red", "green", "blue"][channel])",
                              hint: "they give \(Self.cineonNames.joined(separator: ", ")) for each channel")
            }
            do throws(TransformError) {
                parameters.append(try LogOp.Parameters(cineonGamma: values[0], refWhite: values[1], refBlack: values[2],
                                                       highlight: values[3], shadow: values[4]))
            } catch {
                throw fail(node, error.description)
            }
        }
        return parameters
    }
}
