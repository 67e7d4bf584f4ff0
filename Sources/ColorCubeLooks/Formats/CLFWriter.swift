import ColorCubeCore
import ColorCubeTransform

/// Writes a transform as an SMPTE ST 2136-1 CLF (compCLFversion 3.0), every node 32f in and out.
///
/// Each operation becomes the node that holds it exactly: a matrix a `Matrix` (3x4), a range a
/// diagonal `Matrix` for its scale and offset plus a clamping `Range`, CDL, log and exponent
/// their own nodes, a 3D LUT a `LUT3D` (preceded by a diagonal `Matrix` when its domain is not
/// 0...1; the table clamps to its domain either way). A 1D LUT whose three curves are evenly
/// spaced with one length becomes a `LUT1D` (preceded by a diagonal `Matrix` when its input range
/// is not 0...1); curves with listed inputs or different lengths become a half-domain `LUT1D`
/// sampled at every half-float value, which is exact at those values and linear between them.
///
/// Numbers are written in Swift's shortest round-trip form (Float for 3D tables, which are
/// Float32, Double elsewhere), so reading the file back gives the same values.
enum CLFWriter {
    /// - Throws: `LUTFileError.cannotHold` for an operation CLF cannot hold, `FileError` when
    ///   the file cannot be written.
    static func write(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<ProcessList xmlns=\"urn:AMPAS:CLF:v3.0\" id=\"\(escape(title))\" name=\"\(escape(title))\" compCLFversion=\"3.0\">\n"
        text += "    <Description>\(escape(title))</Description>\n"
        for (index, operation) in transform.operations.enumerated() {
            text += try node(operation, id: "op\(index + 1)", path: displayPath)
        }
        if transform.operations.isEmpty {
            // A ProcessList needs one node: the identity as a matrix.
            text += matrixNode(diagonal(.one), offset: .zero, id: "op1")
        }
        text += "</ProcessList>\n"
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        try writer.append(text)
        try writer.close()
    }

    /// The node (or nodes) that hold `operation`; `format` names the file being written in the
    /// error for an operation CLF cannot hold (`CTFWriter` writes CLF's operations through here).
    static func node(_ operation: any TransformOp, id: String, path: String, format: String = "a CLF file") throws -> String {
        switch operation {
        case let matrix as MatrixOp:
            return matrixNode(matrix.rows, offset: matrix.offset, id: id)
        case let range as RangeOp:
            var text = ""
            if range.scale != 1 || range.offset != 0 {
                text += matrixNode(diagonal(SIMD3(repeating: range.scale)), offset: SIMD3(repeating: range.offset), id: id + "-scale")
            }
            if range.lower != nil || range.upper != nil {
                text += open("Range", id: id)
                if let lower = range.lower { text += "        <minInValue>\(lower)</minInValue>\n        <minOutValue>\(lower)</minOutValue>\n" }
                if let upper = range.upper { text += "        <maxInValue>\(upper)</maxInValue>\n        <maxOutValue>\(upper)</maxOutValue>\n" }
                text += "    </Range>\n"
            }
            return text
        case let lattice as LUT3DOp:
            return lut3DNode(lattice, id: id)
        case let lut as LUT1DOp:
            return lut1DNode(lut, id: id)
        case let kept as HueKeepingOp:
            guard let lut = kept.curves as? LUT1DOp else { throw cannotHold(operation, path: path, format: format) }
            return lut1DNode(lut, id: id, keepsHue: true)
        case let cdl as CDLOp:
            return open("ASC_CDL", id: id, extra: " style=\"\(cdl.style.rawValue)\"")
                + "        <SOPNode>\n"
                + "            <Slope>\(triple(cdl.slope))</Slope>\n"
                + "            <Offset>\(triple(cdl.offset))</Offset>\n"
                + "            <Power>\(triple(cdl.power))</Power>\n"
                + "        </SOPNode>\n"
                + "        <SatNode>\n            <Saturation>\(cdl.saturation)</Saturation>\n        </SatNode>\n"
                + "    </ASC_CDL>\n"
        case let log as LogOp:
            var text = open("Log", id: id, extra: " style=\"\(log.style.rawValue)\"")
            if log.style.takesParameters {
                for (channel, p) in channelGroups(log.parameters) {
                    text += "        <LogParams" + (channel.map { " channel=\"\($0)\"" } ?? "") + " base=\"\(log.base)\""
                        + " logSideSlope=\"\(p.logSideSlope)\" logSideOffset=\"\(p.logSideOffset)\""
                        + " linSideSlope=\"\(p.linSideSlope)\" linSideOffset=\"\(p.linSideOffset)\""
                        + (p.linSideBreak.map { " linSideBreak=\"\($0)\"" } ?? "")
                        + (p.linearSlope.map { " linearSlope=\"\($0)\"" } ?? "") + "/>\n"
                }
            }
            return text + "    </Log>\n"
        case let exponent as ExponentOp:
            var text = open("Exponent", id: id, extra: " style=\"\(exponent.style.rawValue)\"")
            let pairs = (0..<3).map { [exponent.exponent[$0], exponent.offset[$0]] }
            for (channel, pair) in channelGroups(pairs) {
                text += "        <ExponentParams" + (channel.map { " channel=\"\($0)\"" } ?? "") + " exponent=\"\(pair[0])\""
                    + (exponent.style.isMonCurve ? " offset=\"\(pair[1])\"" : "") + "/>\n"
            }
            return text + "    </Exponent>\n"
        case let mixed as StrengthOp:
            // Only a step whose strength folds into its own data (a 3D LUT, a matrix) has nodes.
            let folded = mixed.optimizedForm
            guard !folded.contains(where: { $0 is StrengthOp }) else { throw cannotHold(operation, path: path, format: format) }
            return try folded.enumerated().map {
                try node($0.element, id: folded.count == 1 ? id : id + "-\($0.offset + 1)", path: path, format: format)
            }
                .joined()
        case let curve where curve.isPerChannel:
            // A curve CLF has no node for (a camera's published transfer function): sampled at
            // every half-float value, as OpenColorIO writes its own built-in curves.
            return halfDomainNode(id: id) { curve.apply(SIMD3(repeating: $0)) }
        default:
            throw cannotHold(operation, path: path, format: format)
        }
    }

    private static func cannotHold(_ operation: any TransformOp, path: String, format: String) -> LUTFileError {
        // OpenColorIO's operators (fixed functions, HLG's system gamma, grading) go in a .ctf.
        let inCTF = format == "a CLF file" && CTFWriter.holds(operation)
        let holds = "LUTs, matrices, ranges, ASC CDLs, logs, exponents and curves"
            + (format == "a CLF file" ? "" : ", and OpenColorIO's fixed functions, exposure-contrast and grading operators")
        return .cannotHold(path: path, format: format, holds: holds,
                           given: operation.description + (inCTF ? "; write a .ctf, which holds OpenColorIO's operators" : ""))
    }

    /// One group without a channel when the three channels agree, else one per channel.
    private static func channelGroups<T: Equatable>(_ values: [T]) -> [(String?, T)] {
        if values.allSatisfy({ $0 == values[0] }) { return [(nil, values[0])] }
        return zip(["R", "G", "B"], values).map { ($0.0, $0.1) }
    }

    /// The opening tag of a node, 32f in and out.
    static func open(_ element: String, id: String, extra: String = "") -> String {
        "    <\(element) id=\"\(id)\" inBitDepth=\"32f\" outBitDepth=\"32f\"\(extra)>\n"
    }

    private static func diagonal(_ scale: SIMD3<Double>) -> [SIMD3<Double>] {
        [SIMD3(scale.x, 0, 0), SIMD3(0, scale.y, 0), SIMD3(0, 0, scale.z)]
    }

    /// A diagonal `Matrix` scaling each channel by `scale`.
    static func scaleNode(_ scale: SIMD3<Double>, id: String) -> String {
        matrixNode(diagonal(scale), offset: .zero, id: id)
    }

    private static func matrixNode(_ rows: [SIMD3<Double>], offset: SIMD3<Double>, id: String) -> String {
        var text = open("Matrix", id: id) + "        <Array dim=\"3 4\">\n"
        for row in 0..<3 {
            text += "            \(rows[row].x) \(rows[row].y) \(rows[row].z) \(offset[row])\n"
        }
        return text + "        </Array>\n    </Matrix>\n"
    }

    /// A diagonal matrix taking `low...high` per channel to 0...1, or "" when it is already 0...1.
    private static func domainMatrix(low: SIMD3<Double>, high: SIMD3<Double>, id: String) -> String {
        guard low != .zero || high != .one else { return "" }
        let scale = 1 / (high - low)
        return matrixNode(diagonal(scale), offset: -low * scale, id: id)
    }

    private static func lut3DNode(_ lattice: LUT3DOp, id: String) -> String {
        var text = domainMatrix(low: lattice.domainMin, high: lattice.domainMax, id: id + "-domain")
        let interpolation = lattice.interpolation == .tetrahedral ? "tetrahedral" : "trilinear"
        let n = lattice.size
        text += open("LUT3D", id: id, extra: " interpolation=\"\(interpolation)\"") + "        <Array dim=\"\(n) \(n) \(n) 3\">\n"
        // CLF lists blue fastest.
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    let entry = lattice.table.entry(at: r + n * (g + n * b))
                    text += "\(entry.x) \(entry.y) \(entry.z)\n"
                }
            }
        }
        return text + "        </Array>\n    </LUT3D>\n"
    }

    /// A 1D LUT's node; with `keepsHue`, marked `hueAdjust="dw3"`, and half-domain unless its
    /// domain is 0...1 (a domain matrix before it would change the order of the channels).
    private static func lut1DNode(_ lut: LUT1DOp, id: String, keepsHue: Bool = false) -> String {
        let hue = keepsHue ? " hueAdjust=\"dw3\"" : ""
        let counts = Set(lut.curves.map(\.outputs.count))
        var low = SIMD3<Double>.zero, high = SIMD3<Double>.one
        var uniform = counts.count == 1
        for (channel, curve) in lut.curves.enumerated() {
            guard case .uniform(let range) = curve.inputs else {
                uniform = false
                break
            }
            low[channel] = range.lowerBound
            high[channel] = range.upperBound
        }
        guard uniform, !keepsHue || (low == .zero && high == .one) else {
            return halfDomainNode(id: id, extra: hue) { SIMD3(lut.curves[0].apply($0), lut.curves[1].apply($0), lut.curves[2].apply($0)) }
        }
        var text = domainMatrix(low: low, high: high, id: id + "-domain")
        let entries = lut.curves[0].outputs.count
        text += open("LUT1D", id: id, extra: hue) + "        <Array dim=\"\(entries) 3\">\n"
        for index in 0..<entries {
            text += "\(lut.curves[0].outputs[index]) \(lut.curves[1].outputs[index]) \(lut.curves[2].outputs[index])\n"
        }
        return text + "        </Array>\n    </LUT1D>\n"
    }

    /// A half-domain `LUT1D`: `curve` at every half-float value. NaN and infinity entries are
    /// never read; they hold the nearest finite value's output.
    private static func halfDomainNode(id: String, extra: String = "", _ curve: (Double) -> SIMD3<Double>) -> String {
        var text = open("LUT1D", id: id, extra: " halfDomain=\"true\"" + extra) + "        <Array dim=\"65536 3\">\n"
        let largest = Double(Float.greatestFiniteMagnitude)
        for bits in 0...UInt16.max {
            let x = HalfFloat.value(bits: bits)
            let output = curve(x.isNaN ? 0 : min(max(x, -65504), 65504))
            // A curve that overflows (a log decoded far past its range) holds Float's largest value.
            let entry = (0..<3).map { channel in output[channel].isNaN ? 0 : min(max(output[channel], -largest), largest) }
            text += "\(entry[0]) \(entry[1]) \(entry[2])\n"
        }
        return text + "        </Array>\n    </LUT1D>\n"
    }

    private static func triple(_ value: SIMD3<Double>) -> String {
        "\(value.x) \(value.y) \(value.z)"
    }

    /// `text` with the five XML special characters escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
