@testable import ColorCubeConverter
import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// Camera Raw profiles against Adobe's DNG SDK: Tests/Fixtures/camera-raw holds profiles the SDK
/// encoded (Tools/camera-raw/oracle.py fixtures) and the SDK's own evaluation of each on a fixed set of
/// linear ProPhoto colours, so these run without the SDK.
@Suite struct CameraRawProfileTests {
    static let fixtures = ["srgb-srgb-clip-32", "adobe-22-extend-17", "prophoto-18-clip-9", "p3-srgb-extend-25",
                           "rec2020-rec2020-clip-12", "srgb-linear-clip-16", "srgb-srgb-clip-1d-64"]

    static func profile(_ name: String) throws -> CameraRawProfile {
        let path = Fixtures.path("camera-raw/\(name).xmp")
        return try CameraRawProfile(try BinaryFile.readAll(path: path), path: path)
    }

    /// The SDK's results: amount, input, output per line.
    static func expectations(_ name: String) throws -> [(amount: Double, input: SIMD3<Double>, output: SIMD3<Double>)] {
        let text = try String(contentsOfFile: Fixtures.path("camera-raw/\(name).txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            return (numbers[0], SIMD3(numbers[1], numbers[2], numbers[3]), SIMD3(numbers[4], numbers[5], numbers[6]))
        }
    }

    @Test(arguments: fixtures)
    func evaluationFollowsTheSDK(_ name: String) throws {
        let profile = try Self.profile(name)
        let expected = try Self.expectations(name)
        #expect(expected.count >= 336)
        var largest = 0.0
        for (amount, input, output) in expected {
            let result = profile.table.withAmount(amount).apply(input)
            largest = max(largest, (result - output).magnitudeMax)
        }
        // The SDK computes in Float32; colorcube in Float64 through the same sampled curves.
        print("\(name): largest difference from the SDK \(largest) (linear ProPhoto)")
        #expect(largest < 2e-5, "\(name): \(largest)")
    }

    @Test func fieldsAreReadAsTheSDKReportsThem() throws {
        // The SDK's decode line for each fixture: dims div prim gamma gamut min max.
        let sdk: [String: (Int, Int, RGBTablePrimaries, RGBTableGamma, RGBTableGamut, Double, Double)] = [
            "srgb-srgb-clip-32": (3, 32, .sRGB, .sRGB, .clip, 0, 2),
            "adobe-22-extend-17": (3, 17, .adobeRGB, .gamma22, .extend, 0, 1.5),
            "prophoto-18-clip-9": (3, 9, .proPhoto, .gamma18, .clip, 0.5, 1),
            "p3-srgb-extend-25": (3, 25, .displayP3, .sRGB, .extend, 0, 2),
            "rec2020-rec2020-clip-12": (3, 12, .rec2020, .rec2020, .clip, 0, 2),
            "srgb-linear-clip-16": (3, 16, .sRGB, .linear, .clip, 0, 2),
            "srgb-srgb-clip-1d-64": (1, 64, .sRGB, .sRGB, .clip, 0, 2),
        ]
        for (name, fields) in sdk {
            let table = try Self.profile(name).table
            #expect(table.dimensions == fields.0 && table.divisions == fields.1, "\(name)")
            #expect(table.primaries == fields.2 && table.gamma == fields.3 && table.gamut == fields.4, "\(name)")
            #expect(table.amountRange == fields.5...fields.6, "\(name)")
        }
        let p3 = try Self.profile("p3-srgb-extend-25")
        #expect(p3.name == "p3-srgb-extend-25" && p3.group == "Oracle")
        #expect(p3.defaultAmount == 2 && p3.table.amount == 2, "crs:RGBTableAmount is the default amount")
        #expect(p3.keyMatches)
    }

    @Test func amountIsRoundedAndKeptInItsRange() throws {
        let table = try Self.profile("prophoto-18-clip-9").table
        #expect(table.withAmount(0.734).amount == 0.73)
        #expect(table.withAmount(0.2).amount == 0.5, "below the profile's minimum")
        #expect(table.withAmount(1.7).amount == 1)
        let look = try LUTReader.read(path: Fixtures.path("camera-raw/prophoto-18-clip-9.xmp"))
        #expect(look.hasCameraRawTable)
        #expect(throws: CameraRawProfileError.amount(asked: 1.5, range: 0.5...1)) { try look.withCameraRawAmount(1.5) }
        let half = try look.withCameraRawAmount(0.75)
        #expect(half.transform.operations.compactMap { ($0 as? RGBTableOp)?.amount } == [0.75])
    }

    @Test func payloadsRoundTripToTheSDKsBytesAndKey() throws {
        for name in Self.fixtures {
            let text = try Self.tableText(Fixtures.path("camera-raw/\(name).xmp"))
            let bytes = try CameraRawProfile.payloadBytes(Array(text.utf8), path: name)
            let payload = try RGBTablePayload(bytes)
            #expect(payload.bytes == bytes, "\(name): the payload written back is the SDK's")
            #expect(MD5.hex(bytes) == (try Self.profile(name)).key, "\(name)")
        }
    }

    @Test func md5MatchesRFC1321() {
        #expect(MD5.hex([]) == "D41D8CD98F00B204E9800998ECF8427E")
        #expect(MD5.hex(Array("abc".utf8)) == "900150983CD24FB0D6963F7D28E17F72")
        #expect(MD5.hex(Array("12345678901234567890123456789012345678901234567890123456789012345678901234567890".utf8))
            == "57EDF4A22BE3C955AC49DA2E2107B67A")
    }

    @Test func base85RoundTripsEveryTailLength() throws {
        for count in 0...9 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 200) }
            let text = AdobeBase85.encode(bytes)
            #expect(text.count == count / 4 * 5 + (count % 4 == 0 ? 0 : count % 4 + 1))
            #expect(try AdobeBase85.decode(text[...]) == bytes)
        }
        // 0xFFFFFFFF in base 85, least significant digit first: 0, 12, 54, 23, 82.
        #expect(AdobeBase85.encode([0xFF, 0xFF, 0xFF, 0xFF]) == Array("0cSn%".utf8))
    }

    @Test func writtenProfilesReadBackAndRepeatByteForByte() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube(size: 5) { rgb in SIMD3(rgb.x * 0.9 + 0.05, rgb.y * rgb.y, 1 - rgb.z) }
        let look = Look(cube: cube, format: CubeTextFormat())
        for space in CameraRawProfileSpace.allCases {
            var format = CameraRawProfileFormat(space: space)
            let path = folder.file("\(space.rawValue).xmp")
            let prepared = format.prepared(look)
            _ = try LUTWriter.write(prepared, format: format, to: path, title: "Look \(space.rawValue) & co", size: 17)
            let first = try BinaryFile.readAll(path: path)
            _ = try LUTWriter.write(prepared, format: format, to: path, title: "Look \(space.rawValue) & co", size: 17)
            #expect(try BinaryFile.readAll(path: path) == first, "\(space): reruns give the same bytes")
            let profile = try CameraRawProfile(first, path: path)
            #expect(profile.name == "Look \(space.rawValue) & co")
            #expect(profile.keyMatches && profile.table.divisions == 17)
            #expect(profile.table.primaries == space.primaries && profile.table.gamma == space.gamma)
            #expect(profile.table.amountRange == 0...2)
            // Read back, the profile gives the look within the resampling to 17 points.
            format = CameraRawProfileFormat()
            let read = try format.read(path: path, options: LUTReadOptions())
            var largest = 0.0
            for r in stride(from: 0.05, to: 1, by: 0.15) {
                for g in stride(from: 0.05, to: 1, by: 0.15) {
                    for b in stride(from: 0.05, to: 1, by: 0.15) {
                        let input = SIMD3(r, g, b)
                        largest = max(largest, (read.transform.apply(input) - look.transform.apply(input)).magnitudeMax)
                    }
                }
            }
            // In sRGB the table's nodes are the photo's own lattice; a wider space spends its 17 points
            // on colours no photo has, so its resampling costs more on this steep look (1 - b, g²).
            print("\(space): written at 17 points, read back within \(largest) of the look")
            #expect(largest < (space == .srgb ? 0.01 : 0.2), "\(space): \(largest)")
        }
    }

    /// The text of a profile's table.
    static func tableText(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let key = text.components(separatedBy: "crs:RGBTable=\"").dropFirst().first?.prefix(32),
              let table = text.components(separatedBy: "crs:Table_\(key)=\"").dropFirst().first?.split(separator: "\"").first else {
            throw CameraRawProfileError.noTable(path: path, presetType: nil)
        }
        return String(table)
    }
}
