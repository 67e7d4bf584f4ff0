import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// The ACES sweeteners (RedMod, Glow) and OpenColorIO's HSY styles: exact values, round
/// trips, the deprecated element names, and OpenColorIO's values over a grid inside and
/// outside 0...1.
extension CTFOperatorTests {
    static let sweetenerStyles: [FixedFunctionOp.Style] = [.redMod03Fwd, .redMod03Rev, .redMod10Fwd, .redMod10Rev,
                                                           .glow03Fwd, .glow03Rev, .glow10Fwd, .glow10Rev]
    static let hsyStyles: [FixedFunctionOp.Style] = [.rgbToHSYLin, .hsyLinToRGB, .rgbToHSYLog, .hsyLogToRGB,
                                                     .rgbToHSYVid, .hsyVidToRGB]

    /// Every channel from -0.25 to 2.5, with dark values around the sweeteners' noise floor
    /// and the HSY luma blend: as HSY, hues wrap, saturations go past 1 and lumas below 0.
    static let grid: [SIMD3<Double>] = {
        let values = [-0.25, 0, 0.004, 0.03, 0.12, 0.35, 0.7, 1, 2.5]
        return values.flatMap { r in values.flatMap { g in values.map { b in SIMD3(r, g, b) } } }
    }()

    /// Written as the old `ACES` and `Function` elements, with integer bit depths, which
    /// neither scales by.
    static let deprecatedSweeteners = processList(
        "<ACES inBitDepth=\"16i\" outBitDepth=\"16i\" style=\"redmod03rev\"/>"
            + "<Function inBitDepth=\"16i\" outBitDepth=\"32f\" style=\"Glow10Fwd\"/>"
            + "<ACES inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"RedMod10Fwd\"/>"
            + "<ACES inBitDepth=\"32f\" outBitDepth=\"12i\" style=\"Surround\"><ACESParams gamma=\"0.9\"/></ACES>",
        version: "1.6")

    /// The largest channel's magnitude.
    static func magnitude(_ rgb: SIMD3<Double>) -> Double {
        max(abs(rgb.x), abs(rgb.y), abs(rgb.z))
    }

    // MARK: Exact values

    @Test func redModifiersMoveSaturatedRedsAlone() throws {
        let redMod03 = try FixedFunctionOp(style: .redMod03Fwd), redMod10 = try FixedFunctionOp(style: .redMod10Fwd)
        // Greys and greens are outside the window or unsaturated, and pass unchanged.
        for colour in [SIMD3(0.18, 0.18, 0.18), SIMD3(0.1, 0.5, 0.1), SIMD3(-0.2, 0.3, 0.9)] {
            #expect(redMod03.apply(colour) == colour && redMod10.apply(colour) == colour)
        }
        // Pure red is the window's centre: red moves 15% (18%) of the way to 0.03, at a
        // saturation of 1 - 1e-10.
        let saturation = 1 - 1e-10
        #expect(abs(redMod03.apply(SIMD3(1, 0, 0)).x - (1 - 0.97 * 0.15 * saturation)) < 1e-15)
        #expect(abs(redMod10.apply(SIMD3(1, 0, 0)).x - (1 - 0.97 * 0.18 * saturation)) < 1e-15)
        // RedMod03 moves the middle channel with red so that the hue stays: (g - b) / (r - b).
        let orange = redMod03.apply(SIMD3(0.8, 0.3, 0.1))
        #expect(abs((orange.y - orange.z) / (orange.x - orange.z) - 0.2 / 0.7) < 1e-14 && orange.z == 0.1)
        #expect(redMod10.apply(SIMD3(0.8, 0.3, 0.1)).y == 0.3)
        // A hue exactly 60° from red is RedMod03's window edge: the colour passes unchanged both
        // ways (in Float64 the angle landed a hair inside, and the inverse had no root). Inside
        // RedMod10's wider window the inverse has none either, and gives NaN as OpenColorIO's.
        #expect(try FixedFunctionOp(style: .redMod10Rev).apply(SIMD3(0, -0.5, 0)).x.isNaN)
        for style in [FixedFunctionOp.Style.redMod03Fwd, .redMod03Rev, .redMod10Fwd] {
            let edge = SIMD3(0, -0.5, 0.0)
            #expect(try FixedFunctionOp(style: style).apply(edge) == edge, "\(style)")
        }
    }

    @Test func glowsLiftDarkSaturatedColours() throws {
        // (0.05, 0, 0): YC = 0.05 (1 + 1.75) / 3, below 2/3 of the mid, at full saturation.
        #expect(abs(try FixedFunctionOp(style: .glow03Fwd).apply(SIMD3(0.05, 0, 0)).x - 0.05 * 1.075) < 1e-15)
        #expect(abs(try FixedFunctionOp(style: .glow10Fwd).apply(SIMD3(0.05, 0, 0)).x - 0.05 * 1.05) < 1e-15)
        #expect(abs(try FixedFunctionOp(style: .glow03Rev).apply(SIMD3(0.05 * 1.075, 0, 0)).x - 0.05) < 1e-15)
        // Bright colours (YC at or above twice the mid) and greys pass unchanged.
        for style in [FixedFunctionOp.Style.glow03Fwd, .glow03Rev, .glow10Fwd, .glow10Rev] {
            let op = try FixedFunctionOp(style: style)
            #expect(op.apply(SIMD3(1, 0.5, 0.2)) == SIMD3(1, 0.5, 0.2) && op.apply(SIMD3(0.02, 0.02, 0.02)) == SIMD3(0.02, 0.02, 0.02))
        }
        // The gain follows a sigmoid of the saturation: 1/32 at 0.1, half at 0.4.
        let glow = try FixedFunctionOp(style: .glow03Fwd)
        #expect(abs(glow.apply(SIMD3(0.05, 0.045, 0.045)).x - 0.05 * (1 + 0.075 / 32)) < 1e-12)
        #expect(abs(glow.apply(SIMD3(0.05, 0.03, 0.03)).x - 0.05 * (1 + 0.075 / 2)) < 1e-12)
    }

    @Test func hsyPutsMagentaAtHueZero() throws {
        let log = try FixedFunctionOp(style: .rgbToHSYLog)
        // Red: hue 1/6, luma 0.2126, distance from the luma 0.7874 + 2 × 0.2126, saturation 4 times it.
        let red = log.apply(SIMD3(1, 0, 0))
        #expect(abs(red.x - 1.0 / 6.0) < 1e-16 && red.z == 0.2126 && abs(red.y - 4 * 1.2126) < 1e-14)
        let magenta = log.apply(SIMD3(1, 0, 1))
        #expect(magenta.x == 0 && abs(magenta.z - 0.2848) < 1e-15)
        #expect(try FixedFunctionOp(style: .rgbToHSYVid).apply(SIMD3(0.5, 0.5, 0.5)).y < 1e-15)
        // Back: hue 1/6 and saturation 0 give the grey of the luma. With a negative luma, red's
        // hue is a negative cyan, red its largest channel, as encoding a negative cyan gives.
        let grey = try FixedFunctionOp(style: .hsyLogToRGB).apply(SIMD3(1.0 / 6.0, 0, 0.3))
        #expect(abs(grey.x - 0.3) < 1e-15 && abs(grey.y - 0.3) < 1e-15 && abs(grey.z - 0.3) < 1e-15)
        let turned = try FixedFunctionOp(style: .hsyVidToRGB).apply(SIMD3(1.0 / 6.0, 0.5, -0.1))
        #expect(turned.x > turned.y && abs(turned.y - turned.z) < 1e-15)
        #expect(try FixedFunctionOp(style: .rgbToHSYVid).apply(SIMD3(0, -0.1, -0.1)).x == 1.0 / 6.0)
    }

    /// Each new style and its inverse give the input back where the inverse is the forward
    /// formula solved: for the sweeteners, where the largest channel is at least their noise
    /// floor of 0.01 (below it the saturation is not that of the scaled colour). OpenColorIO's
    /// RedMod10 inverse takes the window weight of its own input, so it is only close: within
    /// 2% of the colour's largest channel.
    @Test func sweetenersAndHSYRoundTrip() throws {
        for style in Self.sweetenerStyles + Self.hsyStyles {
            let op = try FixedFunctionOp(style: style)
            let inverse = try #require(try op.inverse().first)
            let bound = style == .redMod10Fwd || style == .redMod10Rev ? 0.02 : 1e-9
            var worst = 0.0
            for input in Self.grid where input.min() >= 0 && input.max() >= 0.01 {
                // The HSY decoders are checked from the side where every input is valid.
                let back = style.rawValue.hasPrefix("HSY") ? op.apply(inverse.apply(input)) : inverse.apply(op.apply(input))
                worst = max(worst, Self.magnitude(back - input) / max(1, Self.magnitude(input)))
            }
            #expect(worst <= bound, "\(style.rawValue): \(worst)")
        }
    }

    /// NaN and infinities never trap (the hue window's knot is checked before it becomes an
    /// index); an infinite green puts a colour outside the red window, which it passes unchanged.
    @Test func nonFiniteInputsDoNotTrap() throws {
        let inputs = [SIMD3(Double.nan, 0.2, 0.1), SIMD3(0.3, .infinity, 0.1), SIMD3(-.infinity, 0.2, 0.1),
                      SIMD3(.nan, .nan, .nan), SIMD3(.infinity, .infinity, .infinity)]
        for style in Self.sweetenerStyles + Self.hsyStyles {
            let op = try FixedFunctionOp(style: style)
            for input in inputs { _ = op.apply(input) }
        }
        let redMod = try FixedFunctionOp(style: .redMod10Fwd).apply(SIMD3(0.3, .infinity, 0.1))
        #expect(redMod.x == 0.3 && redMod.z == 0.1)
    }

    @Test func deprecatedElementsReadTheSweeteners() throws {
        let ops = try Self.read(Self.deprecatedSweeteners).transform.operations.compactMap { $0 as? FixedFunctionOp }
        #expect(ops.map(\.style) == [.redMod03Rev, .glow10Fwd, .redMod10Fwd, .rec2100SurroundFwd])
        #expect(ops.map(\.description) == ["fixed function RedMod03Rev", "fixed function Glow10Fwd",
                                           "fixed function RedMod10Fwd", "fixed function Rec2100SurroundFwd (0.9)"])
    }

    // MARK: Against OpenColorIO

    /// OpenColorIO's CPU renderer over `grid`, one file per style, within 1e-5 relative of the
    /// largest channel of the colour in or out (OpenColorIO rounds to Float32 at every step).
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func sweetenersAndHSYAgreeWithOpenColorIO() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        var files = (Self.sweetenerStyles + Self.hsyStyles).map { ($0.rawValue, Self.processList(Self.ff($0.rawValue))) }
        files.append(("deprecated", Self.deprecatedSweeteners))
        for (name, text) in files {
            let path = try OCIOReference.write(text, named: "\(name).ctf", in: folder)
            let ours = try LUTReader.read(path: path).transform
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: Self.grid, python: python) else {
                Issue.record("OpenColorIO refuses \(name)")
                continue
            }
            var worst = (error: 0.0, at: SIMD3<Double>.zero)
            for (input, reference) in zip(Self.grid, theirs) {
                let value = ours.apply(input)
                let scale = max(Self.magnitude(input), Self.magnitude(reference), 1e-3)
                for channel in 0..<3 {
                    let error = abs(value[channel] - reference[channel]) / scale
                    if !(error <= worst.error) { worst = (error, input) }
                }
            }
            print("\(name): largest difference \(worst.error) of the colour's largest channel, at \(worst.at)")
            #expect(worst.error <= 1e-5, "\(name) at \(worst.at)")
        }
    }
}
