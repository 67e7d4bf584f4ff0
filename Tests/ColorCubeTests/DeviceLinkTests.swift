import CLittleCMS
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct DeviceLinkTests {
    /// Output (blue, red, green) for input (red, green, blue): a permutation shows any axis mix-up.
    static func rotation(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { SIMD3($0.z, $0.x, $0.y) }
    }

    /// Runs `rgb` through the device link in `bytes` with Little CMS itself, as jpgicc would.
    static func applyWithLittleCMS(_ bytes: [UInt8], _ rgb: [Float]) throws -> [Float] {
        let profile = try #require(bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        defer { cmsCloseProfile(profile) }
        var profiles: [cmsHPROFILE?] = [profile]
        let transform = try #require(cmsCreateMultiprofileTransform(&profiles, 1, CCMS_TYPE_RGB_FLT, CCMS_TYPE_RGB_FLT,
                                                                    CCMS_INTENT_PERCEPTUAL, CCMS_FLAGS_NOCACHE))
        defer { cmsDeleteTransform(transform) }
        var output = [Float](repeating: 0, count: rgb.count)
        rgb.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { cmsDoTransform(transform, input.baseAddress, $0.baseAddress, cmsUInt32Number(rgb.count / 3)) }
        }
        return output
    }

    @Test func littleCMSReadsTheTableInColorCubesOrder() throws {
        let bytes = try DeviceLinkFormat.encode(Self.rotation(size: 5), title: "rotation", path: "rotation.icc")
        let colours: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.25, 0.5, 0.75]
        let output = try Self.applyWithLittleCMS(bytes, colours)
        let expected: [Float] = [0, 1, 0, 0, 0, 1, 1, 0, 0, 0.75, 0.25, 0.5]
        for (observed, wanted) in zip(output, expected) {
            #expect(abs(observed - wanted) <= 2 / 65535, "expected \(wanted), observed \(observed)")
        }
    }

    @Test func theProfileIsARGBDeviceLinkWithTheTitle() throws {
        let bytes = try DeviceLinkFormat.encode(try ColorCube.identity(size: 3), title: "Warm fade", path: "warm.icc")
        let profile = try #require(bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        defer { cmsCloseProfile(profile) }
        #expect(cmsGetDeviceClass(profile) == cmsSigLinkClass)
        #expect(cmsGetColorSpace(profile) == cmsSigRgbData)
        #expect(cmsGetPCS(profile) == cmsSigRgbData)
        #expect(cmsGetEncodedICCversion(profile) >> 24 == 4)
        #expect(ColorConversion.describe(ICCProfileData(bytes: bytes)) == "Warm fade")
    }

    @Test func readingSamplesTheTablesOwnGrid() throws {
        let cube = try Self.rotation(size: 17)
        let read = try Self.writtenAndRead(cube)
        #expect(read.size == 17)
        var largest: Float = 0
        for index in 0..<cube.entryCount {
            let d = cube.entry(at: index) - read.entry(at: index)
            largest = max(largest, abs(d.x), abs(d.y), abs(d.z))
        }
        #expect(largest <= 2 / 65535, "observed \(largest)")
    }

    @Test func valuesOutsideTheUnitRangeAreClamped() throws {
        let cube = try ColorCube(size: 2) { $0 * 1.5 - 0.25 }
        let read = try Self.writtenAndRead(cube)
        #expect(read.entry(at: 0) == SIMD4(0, 0, 0, 1))
        #expect(read.entry(at: 7) == SIMD4(1, 1, 1, 1))
    }

    @Test func cubesAbove255PointsAreRefused() throws {
        #expect(throws: ConversionError.unsupportedSize(path: "big.icc", size: 256, format: "an ICC device link",
                                                        sizes: "2...255: an ICC colour table holds at most 255 points per axis",
                                                        largestSize: 255)) {
            try DeviceLinkFormat.encode(try ColorCube.identity(size: 256), title: "", path: "big.icc")
        }
    }

    /// A profile whose header says device link is read as one: one that converts to another
    /// space than RGB is refused, saying so.
    @Test func aLinkToAnotherSpaceIsRefused() throws {
        let folder = try TemporaryDirectory()
        var bytes = ICCProfiles.sRGB
        bytes.replaceSubrange(12..<16, with: Array("link".utf8))
        let path = try Self.file(bytes, named: "xyz.icc", in: folder)
        let error = #expect(throws: LUTFileError.self) { try LUTReader.read(path: path) }
        #expect(error?.description.contains("colorcube reads RGB-to-RGB links") == true, "\(String(describing: error))")
    }

    @Test func garbageIsUnreadable() throws {
        let folder = try TemporaryDirectory()
        var bytes = [UInt8](repeating: 7, count: 200)
        bytes.replaceSubrange(12..<16, with: Array("link".utf8))
        let path = try Self.file(bytes, named: "junk.icc", in: folder)
        #expect(throws: LUTFileError.undecodable(path: path, reason: "not an ICC profile Little CMS can read")) {
            try LUTReader.read(path: path)
        }
    }

    /// `bytes` written to `name` in `folder`.
    static func file(_ bytes: [UInt8], named name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `cube` written as a device link and read back through the format table, as a user's file is.
    static func writtenAndRead(_ cube: ColorCube) throws -> any CubeTable & Sendable {
        let folder = try TemporaryDirectory()
        let path = try Self.file(DeviceLinkFormat.encode(cube, title: "", path: "link.icc"), named: "link.icc", in: folder)
        return try #require(try LUTReader.read(path: path).plainTable)
    }
}
