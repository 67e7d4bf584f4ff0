import ColorCubeImaging
import Foundation

/// Test images and measures shared by the WebP and HEIF codec tests.
enum CodecTestImages {
    /// A smooth photo-like image: two gradients and a soft diagonal, 8-bit, RGB or RGBA (alpha
    /// steps through 0...255, with fully transparent pixels that still carry colour).
    static func smooth(width: Int = 64, height: Int = 48, channels: Int = 3) -> RasterImage {
        var samples = [UInt8]()
        samples.reserveCapacity(width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                samples.append(UInt8(40 + 170 * x / (width - 1)))
                samples.append(UInt8(30 + 190 * y / (height - 1)))
                samples.append(UInt8(200 - 120 * (x + y) / (width + height - 2)))
                if channels == 4 { samples.append(UInt8((x * 37 + y * 11) % 256)) }
            }
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: .eight(samples))
    }

    /// `smooth` at 16 bits with values that are not multiples of 257.
    static func smooth16(width: Int = 64, height: Int = 48) -> RasterImage {
        var samples = [UInt16]()
        for y in 0..<height {
            for x in 0..<width {
                samples.append(UInt16(9000 + 44000 * x / (width - 1)))
                samples.append(UInt16(7000 + 50000 * y / (height - 1)))
                samples.append(UInt16(52000 - 30000 * (x + y) / (width + height - 2)))
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: .sixteen(samples))
    }

    /// Peak signal-to-noise ratio in dB over the colour channels (alpha excluded), at the images'
    /// own bit depth.
    static func psnr(_ a: RasterImage, _ b: RasterImage) -> Double {
        precondition(a.pixels.count == b.pixels.count && a.channels == b.channels)
        var squares = 0.0
        var count = 0
        for index in 0..<a.pixels.count where index % a.channels < 3 {
            let difference = Double(a.pixels[index] - b.pixels[index])
            squares += difference * difference
            count += 1
        }
        let peak = Double(a.pixels.maxCode)
        return squares == 0 ? .infinity : 10 * log10(peak * peak / (squares / Double(count)))
    }

    /// The samples as an array of Ints.
    static func samples(_ image: RasterImage) -> [Int] {
        (0..<image.pixels.count).map { image.pixels[$0] }
    }

    /// A little-endian TIFF structure whose only tag is Orientation (no "Exif\0\0" prefix).
    static func exif(orientation: UInt8) -> [UInt8] {
        [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
         0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00]
    }

    static let xmp = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>".utf8)

    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// ImageMagick's `convert`, when the real one is installed.
    static let imageMagick: String? = ["/usr/bin/convert", "/usr/local/bin/magick", "/usr/bin/magick"]
        .first { path in
            guard FileManager.default.isExecutableFile(atPath: path) else { return false }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["-version"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = Pipe()
            guard (try? process.run()) != nil else { return false }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // Its own first line: a stand-in that only mentions ImageMagick is not it.
            return process.terminationStatus == 0 && text.hasPrefix("Version: ImageMagick")
        }

    /// Runs ImageMagick with `arguments`; true when it succeeded.
    @discardableResult
    static func runImageMagick(_ arguments: [String]) throws -> Bool {
        guard let imageMagick else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: imageMagick)
        process.arguments = arguments
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
