import ColorCubeCore
import ColorCubeTransform

/// A `Matrix`: 3x3 with an optional offset column, or OpenColorIO's RGBA forms.
struct MatrixElement: CLFElement {
    var name: String { "Matrix" }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.matrix(node, inDepth, outDepth)]
    }
}

extension CLFNodeReader {
    /// A Matrix as OpenColorIO reads it. From version 1.3 (and in every CLF) the array is "3 3"
    /// or "3 4" (the fourth column is the offset), or the alpha forms "4 4" and "4 5" (the fifth
    /// column is the offset); a third dimension, if written, repeats the first.
    /// Up to version 1.2 it is "3 3 3", or in a .ctf "4 4 3" whose fourth column is the offset.
    /// The alpha row is ignored, and the alpha column adds to the offset: OpenColorIO applies a
    /// matrix to an RGB image with alpha 1.
    fileprivate func matrix(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> MatrixOp {
        let early = legacyVersion.map { $0 <= (1, 2, 0) } ?? false
        let (dims, values, array, _) = try self.array(node, describe: "\"3 3\", \"3 4\", \"4 4\" or \"4 5\"",
                                                 check: { Self.isMatrixShape($0) || $0 == [4, 4, 3] },
                                                 count: { $0[0] * $0[1] })
        let shape = "dim \"\(dims.map(String.init).joined(separator: " "))\""
        // OpenColorIO refuses the other shapes in a file up to version 1.2, and this one after it.
        if early, let legacyVersion, !(dims == [3, 3, 3] || dims == [4, 4, 3]) {
            throw fail(array, "\(shape) in a version \(legacyVersion.0).\(legacyVersion.1) file, "
                + "where a Matrix is \"3 3 3\"; write that, or state version 1.3 or later for \"3 3\" and \"3 4\"")
        }
        if !early, dims == [4, 4, 3] {
            throw fail(array, "\(shape) is the form of files up to version 1.2; write \"3 4\" (the fourth column is the offset)")
        }
        let columns = dims[1]
        // The column of offsets, and the alpha column, if the array has them.
        let offsetColumn = early ? (dims[0] == 4 ? 3 : nil) : (columns == 4 && dims[0] == 3 ? 3 : (columns == 5 ? 4 : nil))
        let alphaColumn = !early && dims[0] == 4 ? 3 : nil
        let gain = inDepth.scale / outDepth.scale
        var rows: [SIMD3<Double>] = []
        var offset = SIMD3<Double>.zero
        for row in 0..<3 {
            rows.append(SIMD3(values[row * columns], values[row * columns + 1], values[row * columns + 2]) * gain)
            if let offsetColumn { offset[row] = values[row * columns + offsetColumn] / outDepth.scale }
            if let alphaColumn { offset[row] += values[row * columns + alphaColumn] * gain }
        }
        do throws(TransformError) {
            return try MatrixOp(rows: rows, offset: offset)
        } catch {
            throw fail(node, error.description)
        }
    }

    /// "3 3", "3 4", "4 4" or "4 5", with an optional third dimension equal to the first. The
    /// 4-row forms (RGBA) are OpenColorIO's, which reads them in a .clf as in a .ctf.
    private static func isMatrixShape(_ dims: [Int]) -> Bool {
        guard dims.count == 2 || (dims.count == 3 && dims[2] == dims[0]) else { return false }
        return (dims[0] == 3 && (dims[1] == 3 || dims[1] == 4)) || (dims[0] == 4 && (dims[1] == 4 || dims[1] == 5))
    }
}
