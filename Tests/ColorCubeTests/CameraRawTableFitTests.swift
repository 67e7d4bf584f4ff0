@testable import ColorCubeConverter
import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// Profiles written in spaces wider than the photo's, read back by colorcube's evaluation of their
/// tables (which agrees with Adobe's SDK within a code, see `CameraRawProfileTests`) and compared
/// with the look on 8-bit sRGB codes: the check Tools/camera-raw/oracle.py `written` makes with
/// the SDK, here without it.
@Suite struct CameraRawTableFitTests {
    /// The oracle's smooth look as a 33-cube (contrast, a cross-channel twist, a warm cast), as
    /// `convert` reads it from a .cube file.
    static func smoothLook() throws -> Look {
        let s = { (x: Float) in 0.5 - 0.5 * cos(Float.pi * min(max(x, 0), 1)) }
        let cube = try ColorCube(size: 33) { rgb in
            let out = SIMD3(0.8 * s(rgb.x) + 0.15 * rgb.y + 0.03, 0.85 * s(rgb.y) + 0.1 * rgb.z + 0.02, 0.75 * s(rgb.z) + 0.12 * rgb.x)
            return out.clamped(lowerBound: .zero, upperBound: .one)
        }
        return Look(cube: cube, format: CubeTextFormat())
    }

    /// Code differences (largest, mean) between `profile` and `look` read by tetrahedral
    /// interpolation (`apply --interpolation tetrahedral`), on the oracle's photo: 41 codes a side
    /// of the sRGB cube and the neutral ramp.
    static func codeDifferences(_ profile: Look, _ look: Look) -> (largest: Int, mean: Double) {
        let steps = (0...40).map { (Double($0) * 255 / 40).rounded(.toNearestOrEven) }
        var codes: [SIMD3<Double>] = []
        for r in steps {
            for g in steps {
                for b in steps { codes.append(SIMD3(r, g, b)) }
            }
        }
        let look = look.transform.interpolating(with: .tetrahedral)
        codes += (0...255).map { SIMD3(repeating: Double($0)) }
        var largest = 0, total = 0
        for code in codes {
            let got = (profile.transform.apply(code / 255) * 255).rounded(.toNearestOrEven)
            let wanted = (look.apply(code / 255).clamped(lowerBound: .zero, upperBound: .one) * 255).rounded(.toNearestOrEven)
            for channel in 0..<3 {
                let difference = Int(abs(got[channel] - wanted[channel]))
                largest = max(largest, difference)
                total += difference
            }
        }
        return (largest, Double(total) / Double(3 * codes.count))
    }

    @Test(arguments: [CameraRawProfileSpace.adobeRGB, .prophoto, .displayP3, .rec2020])
    func wideSpaceProfilesGiveTheLookWithinTheTablesResampling(_ space: CameraRawProfileSpace) throws {
        let folder = try TemporaryDirectory()
        let look = try Self.smoothLook()
        let format = CameraRawProfileFormat(space: space)
        let prepared = format.prepared(look, size: 32)
        #expect(prepared.transform.plainLattice?.size == 32, "\(space): the fitted table itself")
        let path = folder.file("\(space.rawValue).xmp")
        _ = try LUTWriter.write(prepared, format: format, to: path, title: "smooth", size: 32)
        let read = try CameraRawProfileFormat().read(path: path, options: LUTReadOptions())
        let (largest, mean) = Self.codeDifferences(read, look)
        print("\(space): written at 32 from a smooth 33-cube, max \(largest) codes, mean \(mean)")
        // ProPhoto spends the fewest of its 32 points on sRGB's colours: its table holds the look
        // to 3 codes where the others hold it to 2 (see the CameraRawProfiles article).
        #expect(largest <= (space == .prophoto ? 3 : 2), "\(space): \(largest) codes")
        #expect(mean <= 0.5, "\(space): mean \(mean)")
    }

}
