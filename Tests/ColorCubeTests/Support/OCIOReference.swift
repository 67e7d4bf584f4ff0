import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeImaging
import ColorCubeTransform
import Foundation
import Testing

/// OpenColorIO as the reference for the LUT readers: `ocioconvert --lut FILE in.png out.png`
/// (Debian's opencolorio-tools), which reads 3D LUT files with tetrahedral interpolation
/// (it asks for INTERP_BEST) and 1D LUTs linearly, and `ociobakelut`, which bakes files and
/// chains into a cube. Tests using them skip when they are not installed. (Comparisons of
/// transforms over a grid image and of collections are in OCIOReference+Process.swift, chains
/// baked by ociobakelut in OCIOBake.swift.)
enum OCIOReference {
    static let ocioconvert: String? = installed("ocioconvert")
    static let ociobakelut: String? = installed("ociobakelut")

    /// The path of OpenColorIO's tool `name` where Debian, a local build or Homebrew put it.
    private static func installed(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments`, its output discarded, and returns its exit status.
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// How a look's image compares with OpenColorIO's.
    struct Agreement {
        /// The largest difference in code values over every channel of every pixel.
        var largestDifference: Int
        /// The share of samples where OpenColorIO's code is a correct rounding of the exact value:
        /// equal to ours, or the other neighbour of an exact value within 1e-4 code of a tie
        /// (OpenColorIO computes in Float32, so a value on x.5 may round either way).
        var exactShare: Double
        var bitDepth: Int

        /// Within 1 code and >= 99% exact at 8 bits; within 16/65535 at 16 bits.
        var isWithinGoals: Bool {
            bitDepth == 8 ? largestDifference <= 1 && exactShare >= 0.99 : largestDifference <= 16
        }
    }

    /// A 64x64 image of varied colours over the whole code range: red and green ramps, blue a
    /// scrambled mix, so every region of a lattice is visited.
    static func image(bitDepth: Int) -> RasterImage {
        var eight: [UInt8] = [], sixteen: [UInt16] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let r = x * 4 + y % 4, g = y * 4 + x % 4, b = (x * 37 + y * 91) % 256
                if bitDepth == 8 {
                    eight += [UInt8(min(r, 255)), UInt8(min(g, 255)), UInt8(b)]
                } else {
                    let scale = 65535.0 / 255.0
                    sixteen += [UInt16(Double(min(r, 255)) * scale * 0.999 + Double(y * 7 % 64)),
                                UInt16(Double(min(g, 255)) * scale * 0.999 + Double(x * 5 % 64)),
                                UInt16(Double(b) * scale * 0.998 + Double((x + y) % 97))]
                }
            }
        }
        return RasterImage(width: 64, height: 64, channels: 3, pixels: bitDepth == 8 ? .eight(eight) : .sixteen(sixteen))
    }

    /// Runs OpenColorIO on the look file at `lutPath` over `image(bitDepth:)` and compares its
    /// output with `look` evaluated exactly (3D LUTs tetrahedral), rounded to the same depth.
    static func compare(_ look: Look, lutPath: String, bitDepth: Int) throws -> Agreement {
        guard let ocioconvert else { throw CocoaError(.executableNotLoadable) }
        let folder = try TemporaryDirectory()
        let input = image(bitDepth: bitDepth)
        try ImageCodecs.write(input, as: .png, to: folder.file("in.png"))
        guard try run(ocioconvert, ["--lut", lutPath, folder.file("in.png"), folder.file("out.png")]) == 0 else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let reference = try ImageCodecs.read(path: folder.file("out.png")).image
        let transform = look.transform.interpolating(with: .tetrahedral)
        let maxCode = Double(input.pixels.maxCode)
        var largest = 0, exact = 0
        for pixel in 0..<(64 * 64) {
            let rgb = SIMD3((0..<3).map { Double(input.pixels[pixel * 3 + $0]) / maxCode })
            let out = transform.apply(rgb)
            for channel in 0..<3 {
                let value = min(max(out[channel], 0), 1) * maxCode
                let theirs = reference.pixels[pixel * 3 + channel]
                largest = max(largest, abs(Int(value.rounded()) - theirs))
                if abs(value - Double(theirs)) <= 0.5 + 1e-4 { exact += 1 }
            }
        }
        return Agreement(largestDifference: largest, exactShare: Double(exact) / Double(64 * 64 * 3), bitDepth: bitDepth)
    }

    /// Writes each (name, text) file, reads it and expects OpenColorIO's image of it to agree with
    /// the look read (`Agreement.isWithinGoals`) at `bitDepth`.
    static func expectAgreement(_ files: [(name: String, text: String)], bitDepth: Int,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryDirectory()
        for (name, text) in files {
            let path = try write(text, named: name, in: folder)
            let agreement = try compare(LUTReader.read(path: path), lutPath: path, bitDepth: bitDepth)
            #expect(agreement.isWithinGoals, "\(name): \(agreement)", sourceLocation: sourceLocation)
        }
    }

    /// Writes `text` to a file named `name` in `folder` and returns its path.
    static func write(_ text: String, named name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Reads a LUT written from `text`, as `LUTReader` finds its format.
    static func read(_ text: String, named name: String, in folder: TemporaryDirectory) throws -> Look {
        try LUTReader.read(path: write(text, named: name, in: folder))
    }

    /// True when OpenColorIO refuses the file at `path` (true when it is absent).
    static func refuses(_ path: String) throws -> Bool {
        try refuses(lut: path, folder: TemporaryDirectory()) ?? true
    }
}

/// Small LUT files for the format tests, written by the tests themselves.
enum LUTTestFiles {
    /// A smooth, clearly non-linear look within 0...1.
    static func look(_ r: Double, _ g: Double, _ b: Double) -> SIMD3<Double> {
        SIMD3(0.9 * r * r + 0.05 * b, 0.5 * g + 0.3 * r * b + 0.1, 0.8 * b.squareRoot() + 0.1 * g)
    }

    /// The look's nodes on a lattice of `size`, one "r g b" string per node (6 decimals), with
    /// red fastest or blue fastest; `prefix` gives each node's line a start (its indices).
    static func nodes(size: Int, blueFastest: Bool, prefix: (Int, Int, Int) -> String = { _, _, _ in "" },
                      value: (SIMD3<Double>) -> String = { String(format: "%.6f %.6f %.6f", $0.x, $0.y, $0.z) }) -> String {
        var lines: [String] = []
        let last = Double(size - 1)
        for outer in 0..<size {
            for middle in 0..<size {
                for inner in 0..<size {
                    let (r, g, b) = blueFastest ? (outer, middle, inner) : (inner, middle, outer)
                    lines.append(prefix(r, g, b) + value(look(Double(r) / last, Double(g) / last, Double(b) / last)))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line of the `LUTFileError.malformed` reading `text` (as a file `name`) throws, or nil
    /// (and a failed expectation) when it throws nothing or another error.
    static func malformedLine(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int? {
        let folder = try TemporaryDirectory()
        let path = try OCIOReference.write(text, named: name, in: folder)
        let error = #expect(throws: LUTFileError.self, sourceLocation: sourceLocation) {
            try LUTReader.read(path: path)
        }
        guard case .malformed(let errorPath, let line, _) = error else { return nil }
        #expect(errorPath == path, sourceLocation: sourceLocation)
        return line
    }

    /// True when OpenColorIO refuses `text` written as a file `name` (true when it is absent).
    static func ocioRefuses(_ text: String, named name: String) throws -> Bool {
        let folder = try TemporaryDirectory()
        return try OCIOReference.refuses(OCIOReference.write(text, named: name, in: folder))
    }
}
