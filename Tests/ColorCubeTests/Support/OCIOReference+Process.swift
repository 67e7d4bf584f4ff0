import ColorCubeImaging
import ColorCubeTransform
import Foundation

/// OpenColorIO's `ocioconvert` as the reference for look formats read as transforms: a grid image
/// through OCIO and through a transform, compared code by code (exact equality, with the worst
/// sample named), and collections baked by `ociobakelut --cccid`.
extension OCIOReference {
    /// How far OCIO's image is from ours: the largest difference in code values and the share of
    /// samples that are equal.
    struct Comparison: CustomStringConvertible {
        var largest: Int
        var exactShare: Double
        var worst: String
        var description: String { "largest difference \(largest) codes, \(exactShare * 100)% exact; worst \(worst)" }
    }

    /// A 64x64 image whose 4096 pixels are a 16-level grid of the whole cube, at 8 bits, or at 16
    /// bits with values between the 8-bit ones.
    static func gridImage(sixteenBits: Bool) -> RasterImage {
        var eight: [UInt8] = [], sixteen: [UInt16] = []
        for index in 0..<4096 {
            for level in [index % 16, (index / 16) % 16, index / 256] {
                if sixteenBits {
                    sixteen.append(UInt16(min(65535, level * 4369 + (index * 7919) % 3000)))
                } else {
                    eight.append(UInt8(level * 17))
                }
            }
        }
        return RasterImage(width: 64, height: 64, channels: 3, pixels: sixteenBits ? .sixteen(sixteen) : .eight(eight))
    }

    /// Runs `ocioconvert --lut lut` on the grid image and compares its output with `transform`
    /// applied in Float64, clamped and rounded to the image's codes. Nil when OCIO failed.
    static func compare(lut: String, with transform: Transform, sixteenBits: Bool, folder: TemporaryDirectory) throws -> Comparison? {
        guard let ocioconvert else { return nil }
        let image = gridImage(sixteenBits: sixteenBits)
        let input = folder.file("grid\(sixteenBits ? 16 : 8).png"), output = folder.file("ocio\(sixteenBits ? 16 : 8).png")
        try PNGFile.write(image, to: input)
        guard try run(ocioconvert, ["--lut", lut, input, output]) == 0 else { return nil }
        let reference = try PNGFile.read(path: output)
        let maximum = Double(sixteenBits ? 65535 : 255)
        var largest = 0, exact = 0, worst = ""
        for pixel in 0..<(64 * 64) {
            let rgb = SIMD3((0..<3).map { Double(image.pixels[pixel * 3 + $0]) / maximum })
            let ours = transform.apply(rgb)
            for channel in 0..<3 {
                let value = ours[channel]
                let code = Int((min(max(value.isNaN ? 0 : value, 0), 1) * maximum).rounded())
                let theirs = reference.pixels[pixel * reference.channels + channel]
                let difference = abs(code - theirs)
                if difference == 0 { exact += 1 }
                if difference > largest {
                    largest = difference
                    worst = "input \(rgb) channel \(channel): ours \(code) (\(value)), OCIO \(theirs)"
                }
            }
        }
        return Comparison(largest: largest, exactShare: Double(exact) / Double(64 * 64 * 3), worst: worst)
    }

    /// The largest difference between `ociobakelut --cccid ID --lut lut` baked to an
    /// `size`-cube and `transform` at the same nodes (for collections, which ocioconvert cannot
    /// choose from); nil without ociobakelut or when it failed.
    static func bakedDifference(lut: String, cccid: String?, with transform: Transform, size: Int = 17,
                                folder: TemporaryDirectory) throws -> Double? {
        guard let ociobakelut else { return nil }
        let output = folder.file("baked.cube")
        var arguments = cccid.map { ["--cccid", $0] } ?? []
        arguments += ["--lut", lut, "--format", "iridas_cube", "--cubesize", String(size), output]
        guard try run(ociobakelut, arguments) == 0 else { return nil }
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.filter { $0.count == 3 }
        guard rows.count == size * size * size else { return nil }
        var largest = 0.0
        for (index, row) in rows.enumerated() {
            let node = SIMD3(Double(index % size), Double((index / size) % size), Double(index / (size * size))) / Double(size - 1)
            let ours = transform.apply(node)
            for channel in 0..<3 { largest = max(largest, abs(ours[channel] - row[channel])) }
        }
        return largest
    }

    /// True when OCIO refuses the LUT file (ocioconvert exits non-zero); nil without OCIO.
    static func refuses(lut: String, folder: TemporaryDirectory) throws -> Bool? {
        guard let ocioconvert else { return nil }
        let input = folder.file("refusal-grid.png")
        if !FileManager.default.fileExists(atPath: input) { try PNGFile.write(gridImage(sixteenBits: false), to: input) }
        return try run(ocioconvert, ["--lut", lut, input, folder.file("refusal-out.png")]) != 0
    }
}
