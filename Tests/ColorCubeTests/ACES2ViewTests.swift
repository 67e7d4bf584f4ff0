import ColorCubeLooks
import Foundation
import Testing

/// ACES 2.0's output transform as OpenColorIO's studio config uses it: ACES 2.0 views of SDR and
/// HDR displays, written by PyOpenColorIO as CTF files (ACES2065-1 in, the display's code values
/// out: matrices, the output transform, the display's curve), read by colorcube and compared with
/// OpenColorIO from deep shadow to 100 times diffuse white, negative and saturated colours included.
@Suite struct ACES2ViewTests {
    static let views: [(display: String, view: String)] = [
        ("sRGB - Display", "ACES 2.0 - SDR 100 nits (Rec.709)"),
        ("Display P3 - Display", "ACES 2.0 - SDR 100 nits (P3 D65)"),
        ("Rec.1886 Rec.709 - Display", "ACES 2.0 - SDR 100 nits (Rec.709)"),
        ("Rec.2100-PQ - Display", "ACES 2.0 - HDR 1000 nits (P3 D65)"),
        ("Rec.2100-PQ - Display", "ACES 2.0 - HDR 4000 nits (Rec.2020)"),
        ("Rec.2100-HLG - Display", "ACES 2.0 - HDR 1000 nits (P3 D65)"),
    ]

    /// Scene values: every combination of twelve levels from -0.05 to 100 on each channel.
    static let inputs: [SIMD3<Double>] = {
        let levels = [-0.05, 0, 0.001, 0.01, 0.05, 0.18, 0.5, 1, 2, 8, 32, 100]
        return levels.flatMap { r in levels.flatMap { g in levels.map { b in SIMD3(r, g, b) } } }
    }()

    /// The CTF text of each view, written by PyOpenColorIO from the studio config.
    static func files(python: String) throws -> [(name: String, text: String)] {
        let script = """
            import json, sys, PyOpenColorIO as ocio
            config = ocio.Config.CreateFromBuiltinConfig("studio-config-latest")
            files = []
            for display, view in json.load(sys.stdin):
                group = config.getProcessor("ACES2065-1", display, view, ocio.TRANSFORM_DIR_FORWARD).createGroupTransform()
                files.append(group.write(formatName="Color Transform Format", config=ocio.Config.CreateRaw()))
            print(json.dumps(files))
            """
        let payload = try JSONSerialization.data(withJSONObject: views.map { [$0.display, $0.view] })
        let texts = try JSONDecoder().decode([String].self, from: SpaceOracle.run(python, ["-c", script], input: payload))
        return zip(views, texts).enumerated().map { index, pair in ("view-\(index).ctf", pair.1) }
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func studioConfigViewsAgreeWithOpenColorIO() throws {
        let python = try #require(SpaceOracle.python)
        let files = try Self.files(python: python)
        let largest = try OCIOReference.largestRelativeDifference(files, inputs: Self.inputs, python: python, tolerance: 5e-3)
        #expect(largest <= 5e-3, "largest \(largest)")
    }
}
