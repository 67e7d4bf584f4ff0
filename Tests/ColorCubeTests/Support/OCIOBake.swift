import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation

/// `ociobakelut` as the reference for chains: it bakes one or more LUT files (forward or inverse)
/// into a plain cube, read back with colorcube's own .cube reader. Tests using it skip when the tool
/// is not installed.
extension OCIOReference {
    /// One step of a chain handed to ociobakelut.
    enum Step {
        case forward(String)
        case inverse(String)
    }

    /// The chain baked by OCIO into a `size`-cube (iridas .cube, red fastest over 0...1).
    static func bake(_ steps: [Step], size: Int, in folder: TemporaryDirectory) throws -> ColorCube {
        guard let tool = ociobakelut else { throw CocoaError(.featureUnsupported) }
        let output = folder.file("ocio-\(UUID().uuidString).cube")
        var arguments: [String] = []
        for step in steps {
            switch step {
            case .forward(let path): arguments += ["--lut", path]
            case .inverse(let path): arguments += ["--invlut", path]
            }
        }
        arguments += ["--format", "iridas_cube", "--cubesize", String(size), output]
        guard try run(tool, arguments) == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "ociobakelut \(arguments) failed"])
        }
        let look = try LUTReader.read(path: output)
        guard let table = look.plainTable else { throw CocoaError(.fileReadCorruptFile) }
        return ColorCube(table)
    }

    /// Per node, the largest channel difference between two cubes of one size, sorted.
    static func sortedDifferences(_ a: some CubeTable, _ b: some CubeTable) -> [Double] {
        precondition(a.size == b.size)
        var differences: [Double] = []
        differences.reserveCapacity(a.entryCount)
        for index in 0..<a.entryCount {
            let x = a.entry(at: index), y = b.entry(at: index)
            differences.append(Double(max(abs(x.x - y.x), abs(x.y - y.y), abs(x.z - y.z))))
        }
        return differences.sorted()
    }
}
