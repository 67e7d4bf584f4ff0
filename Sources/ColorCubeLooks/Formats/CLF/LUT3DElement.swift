import ColorCubeCore
import ColorCubeTransform

/// A `LUT3D`: a lattice, blue varying fastest in the file, with its IndexMap.
struct LUT3DElement: CLFElement {
    var name: String { "LUT3D" }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        try reader.lut3D(node, inDepth, outDepth)
    }
}

extension CLFNodeReader {
    mutating func lut3D(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> [any TransformOp] {
        let sizes = ColorCube.sizeRange
        let (dims, values, array, _) = try self.array(node, describe: "\"N N N 3\" with N from \(sizes.lowerBound) to \(sizes.upperBound)",
                                                   check: { $0.count == 4 && $0[0] == $0[1] && $0[1] == $0[2] && sizes.contains($0[0]) && $0[3] == 3 },
                                                   count: { $0[0] * $0[1] * $0[2] * 3 })
        let interpolation: Interpolation
        switch node.attribute("interpolation")?.lowercased() {
        // Without the attribute, trilinear: the CLF default, and what OpenColorIO 2.6 applies unless
        // the caller asks for another.
        case nil, "trilinear": interpolation = .trilinear
        case "tetrahedral": interpolation = .tetrahedral
        case let other?: throw fail(node, "interpolation \"\(other)\" is not trilinear or tetrahedral")
        }
        let n = dims[0]
        let scale = Float(outDepth.scale)
        var rgba = [Float](repeating: 1, count: n * n * n * 4)
        // The file's blue varies fastest: entry (r, g, b) is at (r * n + g) * n + b there and at
        // r + n * (g + n * b) in ColorCube.
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    let source = ((r * n + g) * n + b) * 3
                    let target = (r + n * (g + n * b)) * 4
                    for channel in 0..<3 {
                        rgba[target + channel] = Float(values[source + channel]) / scale
                    }
                }
            }
        }
        let cube: ColorCube
        do throws(CubeError) {
            cube = try ColorCube(size: n, values: rgba)
        } catch {
            throw fail(array, error.description)
        }
        var operations = try indexMap(node, inDepth: inDepth, entries: n)
        operations.append(LUT3DOp(table: cube, interpolation: interpolation))
        return operations
    }
}
