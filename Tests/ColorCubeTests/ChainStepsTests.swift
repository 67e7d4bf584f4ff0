import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// Chains applied by the engine step by step: against OpenColorIO applying each file in turn
/// (a config whose colour space is a group of the files), and on their own where the answer is
/// known (a 1D table read at its own entries, outputs on half codes).
@Suite struct ChainStepsTests {
    // MARK: Files made to cover the corners

    /// A steep 1D table of `count` entries: x^0.35, steepest at 0.
    static func steepSpi1D(count: Int) -> String {
        var text = "Version 1\nFrom 0 1\nLength \(count)\nComponents 1\n{\n"
        for index in 0..<count { text += "\(pow(Double(index) / Double(count - 1), 0.35))\n" }
        return text + "}\n"
    }

    static let matrix = "0.8 0.15 0.05 0\n0.1 0.85 0.05 0\n0.02 0.08 0.9 0\n"

    /// A creative 33-cube: saturation with a wobble, clipped to 0...1.
    static let creative: String = {
        var text = "LUT_3D_SIZE 33\n"
        for b in 0..<33 { for g in 0..<33 { for r in 0..<33 {
            let c = SIMD3(Double(r) * 0.95 + 1, Double(g), Double(b) * 1.05 - 0.6) / 32
            let luma = 0.3 * c.x + 0.6 * c.y + 0.1 * c.z
            let v = (0..<3).map { min(1, max(0, luma + 1.2 * (c[$0] - luma) + 0.03 * sin(6 * c[$0]))) }
            text += "\(v[0]) \(v[1]) \(v[2])\n"
        } } }
        return text
    }()

    /// A tint 17-cube.
    static let tint: String = {
        var text = "LUT_3D_SIZE 17\n"
        for b in 0..<17 { for g in 0..<17 { for r in 0..<17 {
            let c = SIMD3(Double(r), Double(g), Double(b)) / 16
            text += "\(pow(c.x, 1.1)) \(c.y * 0.97 + 0.02) \(min(1, c.z * 1.03))\n"
        } } }
        return text
    }()

    static let cdl = "<ColorCorrection id=\"x\"><SOPNode><Slope>1.1 1.0 0.9</Slope><Offset>0.01 0 -0.01</Offset>"
        + "<Power>1.2 1.0 0.9</Power></SOPNode><SatNode><Saturation>1.3</Saturation></SatNode></ColorCorrection>\n"

    // MARK: Against OpenColorIO

    /// Applies `files` in turn with OpenColorIO to `image` (3D LUTs tetrahedral); nil without it.
    static func openColorIO(_ files: [String], image: RasterImage, in folder: TemporaryDirectory) throws -> RasterImage? {
        guard let ocioconvert = OCIOReference.ocioconvert else { return nil }
        var config = "ocio_profile_version: 2\nsearch_path: \(folder.path)\nroles: {default: raw}\ncolorspaces:\n"
            + "  - !<ColorSpace> {name: raw}\n  - !<ColorSpace>\n    name: chain\n    from_scene_reference: !<GroupTransform>\n"
            + "      children:\n"
        for file in files {
            let threeD = file.hasSuffix(".cube") ? ", interpolation: tetrahedral" : ""
            config += "        - !<FileTransform> {src: \(file)\(threeD)}\n"
        }
        try config.write(toFile: folder.file("config.ocio"), atomically: true, encoding: .utf8)
        try PNGFile.write(image, to: folder.file("in.png"))
        let status = try OCIOReference.run("/usr/bin/env", ["OCIO=" + folder.file("config.ocio"), ocioconvert,
                                                             folder.file("in.png"), "raw", folder.file("out.png"), "chain"])
        guard status == 0 else { return nil }
        return try PNGFile.read(path: folder.file("out.png"))
    }

    /// 128x128 colours: random codes, and ramps of the darkest codes (where steep tables differ).
    static func image(sixteenBits: Bool) -> RasterImage {
        var generator = TestRandom(seed: 5)
        let count = 128 * 128 * 3
        if sixteenBits {
            var samples = (0..<count).map { _ in UInt16.random(in: 0...65535, using: &generator) }
            for x in 0..<128 { for channel in 0..<3 { samples[(x * 3) + channel] = UInt16(x * (channel + 1)) } }
            return RasterImage(width: 128, height: 128, channels: 3, pixels: .sixteen(samples))
        }
        var samples = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for x in 0..<128 { for channel in 0..<3 { samples[(x * 3) + channel] = UInt8(x * 2) } }
        return RasterImage(width: 128, height: 128, channels: 3, pixels: .eight(samples))
    }

    /// The image through the engine made from `files` read as a chain.
    static func ours(_ files: [String], image: RasterImage, in folder: TemporaryDirectory) throws -> (RasterImage, LUTEngine) {
        let look = Look(chain: try files.map { try LUTReader.read(path: folder.file($0)) })
        let engine = try LUTEngine(transform: look.transform, interpolation: .tetrahedral)
        var output = image
        switch image.pixels {
        case .eight(var samples):
            samples.withUnsafeMutableBufferPointer { engine.apply($0.baseAddress!, to: $0.baseAddress!, pixelCount: 128 * 128, layout: .rgb) }
            output.pixels = .eight(samples)
        case .sixteen(var samples):
            samples.withUnsafeMutableBufferPointer { engine.apply($0.baseAddress!, to: $0.baseAddress!, pixelCount: 128 * 128, layout: .rgb) }
            output.pixels = .sixteen(samples)
        case .float:
            Issue.record("the chain tests grade 8 and 16-bit pictures")
        }
        return (output, engine)
    }

    static let chains: [(name: String, files: [(String, String)])] = [
        ("shaper, matrix, cube, CDL", [("shaper.spi1d", steepSpi1D(count: 4096)), ("mix.spimtx", matrix),
                                       ("grade.cube", creative), ("look.cc", cdl)]),
        ("two cubes in a row", [("grade.cube", creative), ("tint.cube", tint)]),
        ("a matrix between two cubes", [("tint.cube", tint), ("mix.spimtx", matrix), ("grade.cube", creative)]),
        ("a CDL with saturation, then a steep table", [("look.cc", cdl), ("steep.spi1d", steepSpi1D(count: 65536))]),
        ("a steep table of 65,536 entries alone", [("steep.spi1d", steepSpi1D(count: 65536))]),
    ]

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "OpenColorIO's ocioconvert is not installed"),
          arguments: chains.indices, [false, true])
    func chainsAgreeWithOpenColorIOStepByStep(index: Int, sixteenBits: Bool) throws {
        let (name, files) = Self.chains[index]
        let folder = try TemporaryDirectory()
        for (file, text) in files { try text.write(toFile: folder.file(file), atomically: true, encoding: .utf8) }
        let image = Self.image(sixteenBits: sixteenBits)
        let theirs = try #require(try Self.openColorIO(files.map(\.0), image: image, in: folder))
        let (ours, engine) = try Self.ours(files.map(\.0), image: image, in: folder)
        var largest = 0, exact = 0
        for index in 0..<(128 * 128 * 3) {
            let difference = abs(ours.pixels[index] - theirs.pixels[index])
            largest = max(largest, difference)
            if difference == 0 { exact += 1 }
        }
        let share = Double(exact) / Double(128 * 128 * 3)
        if sixteenBits {
            #expect(largest <= 16, "\(name): largest \(largest) of 65535, \(share * 100)% exact, steps \(engine.runsAsSteps)")
        } else {
            #expect(largest <= 1 && share >= 0.99, "\(name): largest \(largest), \(share * 100)% exact, steps \(engine.runsAsSteps)")
        }
    }

    // MARK: On their own

    /// A 65,536-entry table read at 16-bit codes returns its own entries, rounded.
    @Test func aTableReadAtItsOwnEntriesReturnsThem() throws {
        let folder = try TemporaryDirectory()
        try Self.steepSpi1D(count: 65536).write(toFile: folder.file("steep.spi1d"), atomically: true, encoding: .utf8)
        let engine = try LUTEngine(transform: try LUTReader.read(path: folder.file("steep.spi1d")).transform)
        var samples = (0..<65536).flatMap { [UInt16($0), UInt16($0), UInt16($0)] }
        samples.withUnsafeMutableBufferPointer { engine.apply($0.baseAddress!, to: $0.baseAddress!, pixelCount: 65536, layout: .rgb) }
        for code in [0, 1, 2, 3, 10, 100, 1000, 30000, 65535] {
            let entry = pow(Double(code) / 65535, 0.35) * 65535
            #expect(samples[3 * code] == UInt16((entry + 0.5).rounded(.down)), "code \(code): \(samples[3 * code]) for \(entry)")
        }
    }

    /// Results are rounded half up from the exact value, in a chain run as steps and through a
    /// lone lattice whose outputs sit on half codes.
    @Test func halfCodesRoundUp() throws {
        let folder = try TemporaryDirectory()
        try Self.creative.write(toFile: folder.file("a.cube"), atomically: true, encoding: .utf8)
        try Self.tint.write(toFile: folder.file("b.cube"), atomically: true, encoding: .utf8)
        let look = Look(chain: [try LUTReader.read(path: folder.file("a.cube")), try LUTReader.read(path: folder.file("b.cube"))])
        let engine = try LUTEngine(transform: look.transform)
        #expect(engine.runsAsSteps)
        let colours: [[UInt8]] = [[10, 200, 30], [0, 0, 0], [255, 255, 255], [128, 64, 32], [1, 254, 127]]
        for colour in colours {
            var pixel = colour
            pixel.withUnsafeMutableBufferPointer { engine.apply($0.baseAddress!, to: $0.baseAddress!, pixelCount: 1, layout: .rgb) }
            let exact = look.transform.apply(SIMD3(Double(colour[0]), Double(colour[1]), Double(colour[2])) / 255)
            #expect(pixel == (0..<3).map { UInt8((min(max(exact[$0], 0), 1) * 255 + 0.5).rounded(.down)) }, "\(colour)")
        }
        // A lone cube whose every entry is 100.5 codes in Float32 arithmetic (100.5 / 255 read as
        // Float32 is 100.5000016 codes): 101 at the lattice's corners, where interpolation returns
        // an entry unchanged, not the 100 that rounding ties to even gave. (Between nodes the
        // Float32 weights can land a unit in the last place below, and so below the half.)
        var single = "LUT_3D_SIZE 2\n"
        for _ in 0..<8 { single += "\(100.5 / 255) \(100.5 / 255) \(100.5 / 255)\n" }
        try single.write(toFile: folder.file("c.cube"), atomically: true, encoding: .utf8)
        for vectorized in [true, false] {
            let table = try #require(try LUTReader.read(path: folder.file("c.cube")).plainTable)
            let lone = LUTEngine(table: table, colorMemory: .none, vectorized: vectorized, fixedPoint: false)
            var values: [UInt8] = [0, 255, 0, 255, 0, 255]
            values.withUnsafeMutableBufferPointer { lone.apply($0.baseAddress!, to: $0.baseAddress!, pixelCount: 2, layout: .rgb) }
            #expect(values == [UInt8](repeating: 101, count: 6), "vectorized \(vectorized)")
        }
    }

    /// What runs as steps and what does not: a plain cube, a shaper and a cube, a matrix alone
    /// keep the lattice; two cubes and a table after a cube run as steps.
    @Test func thePlanKeepsTheLatticeWhereItIsExact() throws {
        let folder = try TemporaryDirectory()
        for (file, text) in [("grade.cube", Self.creative), ("tint.cube", Self.tint), ("mix.spimtx", Self.matrix),
                             ("steep.spi1d", Self.steepSpi1D(count: 4096))] {
            try text.write(toFile: folder.file(file), atomically: true, encoding: .utf8)
        }
        func plan(_ files: [String]) throws -> ChainPlan {
            try ChainPlan(Look(chain: try files.map { try LUTReader.read(path: folder.file($0)) }).transform)
        }
        #expect(try !plan(["grade.cube"]).runsAsSteps)
        #expect(try !plan(["steep.spi1d", "grade.cube"]).runsAsSteps)
        #expect(try !plan(["mix.spimtx"]).runsAsSteps)
        #expect(try plan(["grade.cube", "tint.cube"]).runsAsSteps)
        #expect(try plan(["grade.cube", "steep.spi1d"]).runsAsSteps)
        #expect(try plan(["grade.cube", "tint.cube"]).summary.hasPrefix("as its steps"))
    }

    /// A curve after the lattice whose slope has no bound (a power of 1/2.2 near zero) would be
    /// far off in the engine's table: the plan measures it and runs the chain as steps, and 16-bit
    /// codes then come out within a code of the exact chain; a gentle curve keeps the lattice.
    @Test func aSteepCurveAfterTheLatticeRunsAsSteps() throws {
        let mix = try MatrixOp(rows: [SIMD3(0.9, 0.1, 0), SIMD3(0.05, 0.9, 0.05), SIMD3(0, 0.1, 0.9)])
        let steep = Transform([mix, try ExponentOp(style: .basicRev, exponent: SIMD3(repeating: 2.2))])
        let plan = try ChainPlan(steep)
        #expect(plan.runsAsSteps)
        #expect(plan.summary.contains("too steep for a table"))
        #expect(try !ChainPlan(Transform([mix, try ExponentOp(style: .basicFwd, exponent: SIMD3(repeating: 2.2))])).runsAsSteps)
        let engine = try LUTEngine(transform: steep)
        var codes: [UInt16] = []
        for pixel in 0..<64 {
            let low = UInt16(2 * pixel)
            codes += [low, low, 200 - low / 2]
        }
        let inputs = codes
        codes.withUnsafeMutableBufferPointer { engine.apply($0.baseAddress!, to: $0.baseAddress!, pixelCount: 64, layout: .rgb) }
        for pixel in 0..<64 {
            let input = SIMD3((0..<3).map { Double(inputs[3 * pixel + $0]) / 65535 })
            let exact = steep.apply(input)
            for channel in 0..<3 {
                let code = (min(max(exact[channel], 0), 1) * 65535 + 0.5).rounded(.down)
                #expect(abs(Double(codes[3 * pixel + channel]) - code) <= 1, "pixel \(pixel), channel \(channel)")
            }
        }
    }

    /// A table that returns its inputs is still a clamp to its domain, as OpenColorIO's optimiser
    /// keeps it: values of a float picture beyond the domain meet it, values inside pass exactly.
    @Test func aTableThatReturnsItsInputsStaysItsClamp() throws {
        let cube = LUT3DOp(table: try IdentityTable(size: 5))
        let ramp = try LUT1DOp(entries: (0...8).map { SIMD3(repeating: Double($0) / 8) })
        let halfDomain = try LUT1DOp(curves: Array(repeating: Curve.identity(over: -65504...65504), count: 3))
        let shifted = try LUT1DOp(curves: [Curve.identity(), Curve.identity(over: -1...1), Curve.identity()])
        for table in [cube, ramp] as [any TransformOp] {
            let kept = Transform([table]).optimized().operations
            let clamp = try #require(kept.first as? RangeOp)
            #expect(kept.count == 1 && clamp.lower == 0 && clamp.upper == 1)
        }
        #expect(Transform([halfDomain]).optimized().operations.isEmpty)
        #expect(Transform([shifted]).optimized().operations.first is LUT1DOp)
        let engine = try LUTEngine(transform: Transform([cube, try MatrixOp(rows: [SIMD3(2, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])]))
        var pixels: [Float] = [4, -0.5, 0.25]
        pixels.withUnsafeMutableBufferPointer {
            engine.apply(floats: $0.baseAddress!, to: $0.baseAddress!, pixelCount: 1, layout: .rgb, parallel: false)
        }
        #expect(pixels == [2, 0, 0.25])
    }

    /// A diagonal matrix scales each channel alone: NaN or infinity in one channel stays in it,
    /// in Float64 and in the Float32 form float pictures take.
    @Test func aDiagonalMatrixKeepsNaNInItsChannel() throws {
        let scale = try MatrixOp(rows: [SIMD3(5, 0, 0), SIMD3(0, 5, 0), SIMD3(0, 0, 5)], offset: SIMD3(0, 0, 1))
        let out = scale.apply(SIMD3(.nan, .infinity, 2))
        #expect(out.x.isNaN && out.y == .infinity && out.z == 11)
        var r: [Float] = [.nan], g: [Float] = [-.infinity], b: [Float] = [2]
        scale.apply(red: &r, green: &g, blue: &b, count: 1)
        #expect(r[0].isNaN && g[0] == -.infinity && b[0] == 11)
    }
}
