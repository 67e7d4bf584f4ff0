import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

/// Outputs depend only on their inputs: no clock, process or random value reaches a file.
@Suite struct DeterministicOutputTests {
    /// 2025-01-01 00:00:00 as the six big-endian UInt16 of an ICC dateTimeNumber.
    static let fixedDateBytes: [UInt8] = [0x07, 0xE9, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]

    static func header(_ profile: [UInt8]) -> (date: [UInt8], id: [UInt8]) {
        (Array(profile[24..<36]), Array(profile[84..<100]))
    }

    /// The offset of `needle` in `haystack`, or nil.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }

    @Test func theSRGBProfileCarriesTheFixedDateAndNoID() throws {
        let profile = ICCProfiles.sRGB
        #expect(profile.count > 128)
        #expect(Self.header(profile).date == Self.fixedDateBytes)
        #expect(Self.header(profile).id == [UInt8](repeating: 0, count: 16))
        #expect(ICCProfiles.fixedCreationDate == [2025, 1, 1, 0, 0, 0])
    }

    @Test func normalizingRewritesDateAndIDAndNothingElse() {
        var bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let original = bytes
        ICCProfiles.normalizeHeader(&bytes)
        #expect(Array(bytes[24..<36]) == Self.fixedDateBytes)
        #expect(Array(bytes[84..<100]) == [UInt8](repeating: 0, count: 16))
        for index in bytes.indices where !(24..<36).contains(index) && !(84..<100).contains(index) {
            #expect(bytes[index] == original[index], "byte \(index)")
        }
        var short: [UInt8] = [1, 2, 3]
        ICCProfiles.normalizeHeader(&short)
        #expect(short == [1, 2, 3])
    }

    @Test func deviceLinksAreByteIdenticalAndDated() throws {
        let cube = try ColorCube(size: 9) { SIMD3($0.z, $0.x * 0.5, $0.y) }
        let first = try DeviceLinkFormat.encode(cube, title: "look", path: "look.icc")
        let second = try DeviceLinkFormat.encode(cube, title: "look", path: "look.icc")
        #expect(first == second)
        #expect(Self.header(first).date == Self.fixedDateBytes)
        #expect(Self.header(first).id == [UInt8](repeating: 0, count: 16))

        let folder = try TemporaryDirectory()
        try DeviceLinkFormat.write(cube, title: "look", to: folder.file("a.icc"))
        try DeviceLinkFormat.write(cube, title: "look", to: folder.file("b.icc"))
        let a = try BinaryFile.readAll(path: folder.file("a.icc"))
        #expect(a == first)
        #expect(try BinaryFile.readAll(path: folder.file("b.icc")) == a)
    }

    @Test func jpegOutputsAreByteIdenticalAndEmbedTheFixedProfile() throws {
        let folder = try TemporaryDirectory()
        // A JPEG tagged with Display P3, so the output is converted and tagged with Little CMS's sRGB.
        var photo = ImageApplierTests.photo()
        photo.colorSpace = .icc(TestProfiles.displayP3())
        try JPEGFile.write(photo, to: folder.file("photo.jpg"))
        let applier = ImageApplierTests.engine(try ColorCube(size: 5) { $0 * 0.9 })
        try applier.apply(input: folder.file("photo.jpg"), output: folder.file("a.jpg"))
        try applier.apply(input: folder.file("photo.jpg"), output: folder.file("b.jpg"))
        let a = try BinaryFile.readAll(path: folder.file("a.jpg"))
        #expect(try BinaryFile.readAll(path: folder.file("b.jpg")) == a)
        let profile = ICCProfiles.sRGB
        let at = try #require(Self.find(Array(profile[0..<128]), in: a))
        #expect(Array(a[(at + 24)..<(at + 36)]) == Self.fixedDateBytes)
    }

    @Test func pngOutputsWithAProfileAreByteIdentical() throws {
        let folder = try TemporaryDirectory()
        var photo = ImageApplierTests.photo()
        let profile = TestProfiles.displayP3()
        #expect(Self.header(profile.bytes).date == Self.fixedDateBytes)
        photo.colorSpace = .icc(profile)
        try PNGFile.write(photo, to: folder.file("photo.png"))
        // The profile is kept (code values as stored), so the output embeds it.
        let applier = ImageApplier(engine: LUTEngine(cube: try ColorCube(size: 5) { $0 * 0.9 }),
                                   options: .init(ignoreProfile: true))
        for name in ["a.png", "b.png"] {
            try applier.apply(input: folder.file("photo.png"), output: folder.file(name))
        }
        let a = try BinaryFile.readAll(path: folder.file("a.png"))
        #expect(try BinaryFile.readAll(path: folder.file("b.png")) == a)
        guard case .icc(let embedded) = try PNGFile.read(path: folder.file("a.png")).colorSpace else {
            Issue.record("the output lost its profile")
            return
        }
        #expect(embedded.bytes == profile.bytes)
    }
}
