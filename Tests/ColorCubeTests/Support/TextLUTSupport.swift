import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

// The text formats parse into operations; these helpers give the tests the plain cube a file
// describes, baked at the file's own lattice size (33 for a 1D-only file), which is the chain
// evaluated exactly at each node.

/// A text format whose `parse` gives the file's contents, which bake to the plain cube the tests
/// compare.
protocol BakingTextFormat {
    associatedtype Contents: BakingContents
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Contents
}

protocol BakingContents {
    func baked() throws -> ColorCube
}

extension BakingTextFormat {
    static func parseContents(_ bytes: [UInt8], path: String) throws -> Contents {
        try bytes.withUnsafeBufferPointer { (buffer) throws(LUTFileError) in try parse(buffer, path: path) }
    }

    static func parse(_ bytes: [UInt8], path: String) throws -> ColorCube {
        try parseContents(bytes, path: path).baked()
    }

    static func readContents(path: String) throws -> Contents {
        try parseContents(BinaryFile.readAll(path: path), path: path)
    }

    static func read(path: String) throws -> ColorCube {
        try readContents(path: path).baked()
    }
}

extension CubeTextFormat: BakingTextFormat {}
extension ThreeDLFormat: BakingTextFormat {}

extension CubeTextFormat.Contents: BakingContents {
    var isOneDimensional: Bool { table == nil }

    var needsBaking: Bool {
        shaper != nil || domainMin != SIMD3(repeating: 0) || domainMax != SIMD3(repeating: 1)
    }

    func baked() throws -> ColorCube {
        ColorCube(try TransformBaker.bake(transform(path: "test.cube"), size: table?.size ?? 33))
    }
}

extension ThreeDLFormat.Contents: BakingContents {
    func baked() throws -> ColorCube {
        ColorCube(try TransformBaker.bake(transform(path: "test.3dl"), size: table.size))
    }
}

extension Look {
    /// The look as a plain cube at its natural size.
    func cube() throws -> ColorCube {
        ColorCube(try baked().table)
    }

    var table: any CubeTable & Sendable {
        get throws { try baked().table }
    }
}
