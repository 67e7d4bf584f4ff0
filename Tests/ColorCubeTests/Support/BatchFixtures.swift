import ColorCubeCore
import ColorCubeImaging
import Foundation

/// Small folders of images for batch tests.
enum BatchFixtures {
    /// A 4x2 RGB image whose pixels depend on `seed`.
    static func image(seed: UInt8) -> RasterImage {
        RasterImage(width: 4, height: 2, channels: 3, pixels: .eight((0..<24).map { UInt8(truncatingIfNeeded: Int($0) * 9 + Int(seed)) }))
    }

    /// Writes a PNG or JPEG (by extension) at `path`, creating its folders.
    static func writeImage(_ path: String, seed: UInt8 = 1) throws {
        try Folders.create(FilePath.split(path).folder)
        if FilePath.pathExtension(path) == "jpg" {
            try JPEGFile.write(image(seed: seed), to: path)
        } else {
            try PNGFile.write(image(seed: seed), to: path)
        }
    }

    static func writeText(_ path: String, _ text: String = "not an image") throws {
        try Folders.create(FilePath.split(path).folder)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
