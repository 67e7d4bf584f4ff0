import ColorCubeCore
import ColorCubeTransform

/// The CTF operators colorcube reads (`InverseLUT1D`, `InverseLUT3D`, `Reference`), each into
/// the operations OpenColorIO 2.6 applies for it by default; see `CTFFormat`.
extension CLFNodeReader {
    /// What OpenColorIO puts in place of an InverseLUT1D or InverseLUT3D next to the LUT1D or
    /// LUT3D it inverts (same entries, after scaling and, for the inverse, after its reversals
    /// are flattened), by operation index: its optimiser removes such a pair, leaving the clamp
    /// the two would make. A 1D pair leaves a Range over the inverse's range of values (inverse
    /// first) or over the inputs between the forward table's flat ends (forward first), in its
    /// red channel, or nothing for half-domain tables; a 3D pair leaves a clamp to 0...1. Pairs
    /// are taken left to right, each node in one pair at most.
    func inversePairs(_ nodes: [(XMLElementTree, String)]) throws(LUTFileError) -> [Int: [any TransformOp]] {
        var replacements: [Int: [any TransformOp]] = [:]
        var index = 0
        while index + 1 < nodes.count {
            let (first, second) = (nodes[index], nodes[index + 1])
            let kinds = Set([first.1, second.1])
            var replacement: [any TransformOp]?
            if kinds == ["InverseLUT1D", "LUT1D"] {
                let inverseFirst = first.1 == "InverseLUT1D"
                replacement = try pairedLUT1D(inverse: inverseFirst ? first.0 : second.0, forward: inverseFirst ? second.0 : first.0,
                                              inverseFirst: inverseFirst)
            } else if kinds == ["InverseLUT3D", "LUT3D"] {
                let inverseFirst = first.1 == "InverseLUT3D"
                replacement = try pairedLUT3D(inverse: inverseFirst ? first.0 : second.0, forward: inverseFirst ? second.0 : first.0)
            }
            if let replacement {
                replacements[index] = replacement
                replacements[index + 1] = []
                index += 2
            } else {
                index += 1
            }
        }
        return replacements
    }

    /// The Range left by an InverseLUT1D and a LUT1D that undo each other, nil when they do not.
    private func pairedLUT1D(inverse: XMLElementTree, forward: XMLElementTree, inverseFirst: Bool) throws(LUTFileError) -> [any TransformOp]? {
        guard inverse.attribute("rawHalfs")?.lowercased() == forward.attribute("rawHalfs")?.lowercased(),
              try !keepsHue(inverse), try !keepsHue(forward) else { return nil }
        // A copy reads the entries, so the notes are taken once, when the nodes are read.
        var scratch = self
        let (inverseInDepth, _) = try bitDepths(inverse), (_, forwardOutDepth) = try bitDepths(forward)
        let (inverseEntries, inverseHalf, _) = try scratch.lut1DEntries(inverse, scale: inverseInDepth)
        let (forwardEntries, forwardHalf, _) = try scratch.lut1DEntries(forward, scale: forwardOutDepth)
        guard inverseHalf == forwardHalf, inverseEntries[0].count == forwardEntries[0].count else { return nil }
        let tables = inverseEntries.map { CTFInverseTable(entries: $0, halfDomain: inverseHalf) }
        for (table, entries) in zip(tables, forwardEntries) where table.monotonic != entries.map({ Float($0) }) {
            return nil
        }
        if inverseHalf { return [] }
        let red = tables[0], last = red.monotonic.count - 1
        let (low, high): (Double, Double)
        if inverseFirst {
            let ends = (Double(red.monotonic[0]), Double(red.monotonic[last]))
            (low, high) = red.isIncreasing ? ends : (ends.1, ends.0)
        } else {
            (low, high) = (Double(red.start) / Double(last), Double(red.end) / Double(last))
        }
        do throws(TransformError) {
            return [try RangeOp(from: low, high, to: low, high)]
        } catch {
            return nil
        }
    }

    /// The clamp left by an InverseLUT3D and a LUT3D that undo each other, nil when they do not.
    private func pairedLUT3D(inverse: XMLElementTree, forward: XMLElementTree) throws(LUTFileError) -> [any TransformOp]? {
        var scratch = self
        let (inverseInDepth, _) = try bitDepths(inverse), (_, forwardOutDepth) = try bitDepths(forward)
        let inverseTable = (try scratch.lut3D(inverse, inverseInDepth, inverseInDepth).last as? LUT3DOp)?.table as? ColorCube
        let forwardTable = (try scratch.lut3D(forward, forwardOutDepth, forwardOutDepth).last as? LUT3DOp)?.table as? ColorCube
        guard let inverseTable, inverseTable == forwardTable else { return nil }
        do throws(TransformError) {
            return [try RangeOp(from: 0, 1, to: 0, 1)]
        } catch {
            return nil
        }
    }

    /// A node's bit depths, for a pair found before the nodes are read (which checks them).
    private func bitDepths(_ node: XMLElementTree) throws(LUTFileError) -> (CLFBitDepth, CLFBitDepth) {
        var found: [CLFBitDepth] = []
        for name in ["inBitDepth", "outBitDepth"] {
            guard let depth = node.attribute(name).flatMap({ CLFBitDepth(rawValue: $0.trimmingWhitespace().lowercased()) }) else {
                throw fail(node, "\(name) is missing or not a bit depth; use one of \(CLFBitDepth.names)")
            }
            found.append(depth)
        }
        return (found[0], found[1])
    }

    /// An InverseLUT1D: a LUT1D's content (entries in the units of the node's `inBitDepth`, the
    /// forward table's output) meaning its inverse, read as the forward table OpenColorIO bakes it
    /// into (`CTFInverseTable.bakedCurves(_:codes:)`): one entry per code of `inBitDepth` (256
    /// for 8i up to 65536 for 16i), or one per half-float value for 16f and 32f or for a table
    /// reaching outside 0...1.
    mutating func inverseLUT1D(_ node: XMLElementTree, _ inDepth: CLFBitDepth) throws(LUTFileError) -> any TransformOp {
        let (entries, halfDomain, array) = try lut1DEntries(node, scale: inDepth)
        let tables = entries.map { CTFInverseTable(entries: $0, halfDomain: halfDomain) }
        let codes: Int? = inDepth == .float16 || inDepth == .float32 ? nil : Int(inDepth.scale) + 1
        let table: LUT1DOp
        do throws(TransformError) {
            table = try LUT1DOp(curves: CTFInverseTable.bakedCurves(tables, codes: codes))
        } catch {
            throw fail(array, error.description)
        }
        return try hueKept(table, node, array: array)
    }

    /// An InverseLUT3D: a LUT3D's content (entries in the units of `inBitDepth`) meaning its
    /// inverse, read as the lattice OpenColorIO bakes it into (`TransformInverter.openColorIOInverse(of:)`).
    mutating func inverseLUT3D(_ node: XMLElementTree, _ inDepth: CLFBitDepth) throws(LUTFileError) -> LUT3DOp {
        // The entries are scaled by the input depth: lut3D scales by the depth it is given last.
        guard let forward = try lut3D(node, inDepth, inDepth).last as? LUT3DOp else {
            throw fail(node, "the <Array> of values is missing")
        }
        do throws(TransformError) {
            return try TransformInverter.openColorIOInverse(of: forward)
        } catch {
            throw fail(node, error.description)
        }
    }

    /// A Reference: the operations of the file at `path` (any format colorcube reads), inverted
    /// when `inverted="true"`, found as `CTFReference.resolve(_:in:)` finds it.
    mutating func reference(_ node: XMLElementTree) throws(LUTFileError) -> [any TransformOp] {
        if let alias = node.attribute("alias") {
            throw fail(node, "alias=\"\(alias.excerpt)\" names a transform of an OpenColorIO config, which colorcube does not read: "
                + "refer to the file with path=\"...\", or bake the look with OpenColorIO (ociobakelut)")
        }
        guard let target = node.attribute("path"), !target.isEmpty else {
            throw fail(node, "attribute path is missing; it names the file to read, e.g. path=\"look.clf\"")
        }
        let inverted = node.attribute("inverted")?.lowercased() == "true"
        let context = CTFReference.context(reading: path)
        let resolved = CTFReference.resolve(target, in: context.folder)
        if context.chain.contains(where: { CTFReference.isSame($0, resolved) }) {
            throw fail(node, "path \"\(target.excerpt)\" makes a cycle of references (\((context.chain + [resolved]).joined(separator: " -> "))): "
                + "a file may not refer to itself or to a file that refers to it; remove one of the References")
        }
        guard BinaryFile.readPrefix(path: resolved, count: 1) != nil else {
            throw fail(node, "the file \(resolved) (path \"\(target.excerpt)\") does not exist or cannot be read; relative paths start "
                + "from \(context.folder.isEmpty ? "the current folder" : context.folder), the folder of the first file read: "
                + "put the file there or correct the path")
        }
        let look = try CTFReference.read(resolved, context: context)
        // Counted at every level, so nested references count more than once: a bound, not a tally.
        context.brought.total += look.transform.operations.count
        if context.brought.total > Self.maxOperations {
            throw fail(node, "the References bring in more than \(Self.maxOperations) operations in all (the most a ProcessList holds); "
                + "bake the referenced files into one look first")
        }
        notes += look.notes.map { "\(resolved): \($0)" }
        guard inverted else { return look.transform.operations }
        do throws(TransformError) {
            return try CTFReference.openColorIOInverse(of: look).operations
        } catch {
            throw fail(node, "inverted=\"true\", but \(resolved) has no inverse: \(error.description)")
        }
    }
}
