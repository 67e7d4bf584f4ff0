import ColorCubeCore
import ColorCubeTransform

/// A `LUT1D`: a 1D table per channel (see `CLFFormat`), with its IndexMap and hue adjustment.
struct LUT1DElement: CLFElement {
    var name: String { "LUT1D" }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        try reader.lut1D(node, inDepth, outDepth)
    }
}

extension CLFNodeReader {
    /// A LUT1D's (or InverseLUT1D's) entries per channel (red, green, blue), divided by `depth`'s
    /// scale, with whether they are one per half-float bit pattern.
    mutating func lut1DEntries(_ node: XMLElementTree, scale depth: CLFBitDepth) throws(LUTFileError)
        -> (outputs: [[Double]], halfDomain: Bool, array: XMLElementTree) {
        let halfDomain = try flag(node, "halfDomain")
        let rawHalfs = try flag(node, "rawHalfs")
        let largest = CLFFormat.largest1DSize
        let (dims, values, array, nonFinite) = try self.array(node, describe: "\"N 1\" or \"N 3\" with N from 2 to \(largest)", readingNonFinite: true,
                                                   check: { $0.count == 2 && (2...largest).contains($0[0]) && ($0[1] == 1 || $0[1] == 3) },
                                                   count: { $0[0] * $0[1] })
        let entries = dims[0], components = dims[1]
        if halfDomain, entries != 65536 {
            throw fail(array, "a halfDomain LUT1D has 65536 entries (one per half-float value), not \(entries)")
        }
        var outputs: [[Double]] = Array(repeating: [], count: 3)
        for channel in 0..<3 { outputs[channel].reserveCapacity(entries) }
        for index in 0..<entries {
            for channel in 0..<3 {
                var value = values[index * components + (components == 1 ? 0 : channel)]
                if rawHalfs {
                    guard value == value.rounded(), (0...65535).contains(value) else {
                        throw fail(array, "rawHalfs value \(value) at entry \(index + 1) is not a 16-bit pattern (0 to 65535)")
                    }
                    value = HalfFloat.value(bits: UInt16(value))
                    if !value.isFinite {
                        value = value.isNaN ? 0 : (value < 0 ? -TextLUTParsing.largestTableEntry : TextLUTParsing.largestTableEntry)
                    }
                }
                // An infinite entry stays the largest Float32 of its sign whatever the bit depth
                // (OpenColorIO scales the infinity, then clamps it).
                outputs[channel].append(abs(value) == TextLUTParsing.largestTableEntry ? value : value / depth.scale)
            }
        }
        if nonFinite > 0 {
            let element = node.name.lowercased() == "inverselut1d" ? "InverseLUT1D" : "LUT1D"
            notes.append("line \(array.line): \(nonFinite) entr\(nonFinite == 1 ? "y" : "ies") of the <\(element)> "
                + "\(nonFinite == 1 ? "is" : "are") NaN or beyond Float32, read as OpenColorIO reads them: NaN as 0, "
                + "infinity as the largest Float32 (3.4e38) of its sign")
        }
        return (outputs, halfDomain, array)
    }

    fileprivate mutating func lut1D(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> [any TransformOp] {
        let (outputs, halfDomain, array) = try lut1DEntries(node, scale: outDepth)
        var operations: [any TransformOp] = try indexMap(node, inDepth: inDepth, entries: outputs[0].count)
        var curves: [Curve] = []
        do throws(TransformError) {
            for channel in 0..<3 {
                if halfDomain {
                    let (inputs, kept) = HalfFloat.finiteDomain(outputs[channel])
                    if let bad = kept.firstIndex(where: { !$0.isFinite }) {
                        throw TransformError.invalidOperation(operation: "1D LUT", reason: "entry for input \(inputs[bad]) is not finite")
                    }
                    curves.append(try Curve(inputs: .points(inputs), outputs: kept))
                } else {
                    curves.append(try Curve(inputs: .uniform(0...1), outputs: outputs[channel]))
                }
            }
            operations.append(try LUT1DOp(curves: curves))
        } catch {
            throw fail(array, error.description)
        }
        if let table = operations.popLast() as? LUT1DOp { operations.append(try hueKept(table, node, array: array)) }
        return operations
    }

    /// Whether a LUT1D (or InverseLUT1D) keeps hue: `hueAdjust="dw3"`, the one adjustment CLF
    /// defines (any other value is refused). A CTF before version 1.4, which had no such
    /// attribute, ignores it, as OpenColorIO does.
    func keepsHue(_ node: XMLElementTree) throws(LUTFileError) -> Bool {
        guard let hue = node.attribute("hueAdjust") else { return false }
        guard hue.lowercased() == "dw3" else {
            throw fail(node, "hueAdjust=\"\(hue.excerpt)\" is not dw3, the one hue adjustment CLF defines; "
                + "remove the attribute for none")
        }
        return ctfVersion >= (1, 4, 0)
    }

    /// `table` keeping hue when `node` asks for it (`keepsHue`).
    func hueKept(_ table: LUT1DOp, _ node: XMLElementTree, array: XMLElementTree) throws(LUTFileError) -> any TransformOp {
        guard try keepsHue(node) else { return table }
        do throws(TransformError) {
            return try HueKeepingOp(table)
        } catch {
            throw fail(array, error.description)
        }
    }

    /// A LUT1D's boolean attribute: absent is false, `true` (any case) is true, and anything
    /// else is refused, as OpenColorIO refuses it.
    private func flag(_ node: XMLElementTree, _ name: String) throws(LUTFileError) -> Bool {
        guard let text = node.attribute(name) else { return false }
        guard text.lowercased() == "true" else {
            throw fail(node, "\(name)=\"\(text.excerpt)\" is not \"true\", the one value CLF allows; remove the attribute to turn \(name) off")
        }
        return true
    }
}
