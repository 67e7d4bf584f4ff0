import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation
import Testing

@Suite struct Discreet1DLFormatTests {
    /// Three 10-bit tables of 1024 entries, each its own curve.
    static let tenBit: String = {
        var lines = ["# a Discreet 1D LUT", "LUT: 3 1024"]
        for channel in 0..<3 {
            let exponent = [0.5, 1.0, 2.2][channel]
            for index in 0..<1024 { lines.append(String(Int((pow(Double(index) / 1023, exponent) * 1023).rounded()))) }
            lines.append("")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// One 256-entry table without a header (the oldest form).
    static let headerless: String = (0..<256).map { String(255 - $0) }.joined(separator: "\n") + "\n"

    /// A half-float-indexed table of 65536 entries with 16-bit integer outputs: x^(1/2.2) on
    /// 0...1, 0 below, 1 above.
    static let halfDomain: String = {
        var lines = ["LUT: 1 65536"]
        for bits in 0..<65536 {
            let x = HalfBits.value(UInt16(bits))
            let y = x.isNaN || x <= 0 ? 0 : min(pow(x, 1 / 2.2), 1)
            lines.append(String(Int((y * 65535).rounded())))
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// Three 256-entry tables whose outputs are half-float bit patterns ("65536f").
    static let halfOutputs: String = {
        var lines = ["LUT: 3 256 65536f"]
        for channel in 0..<3 {
            for index in 0..<256 {
                // Half bits of (index / 255) * gain, from the value's Float16 pattern.
                let value = Float(index) / 255 * [0.5, 1.0, 1.5][channel]
                lines.append(String(HalfBits.bits(value)))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func readsTenBitTables() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.tenBit, named: "log.lut", in: folder)
        #expect(look.format.name == "1dl")
        let out = look.transform.apply(SIMD3(1, 0, 1))
        #expect(out == SIMD3(1, 0, 1))
        let middle = look.transform.apply(SIMD3(repeating: 512.0 / 1023))
        #expect(abs(middle.y - 512.0 / 1023) < 1e-9)
        #expect(abs(middle.x - (pow(512.0 / 1023, 0.5) * 1023).rounded() / 1023) < 1e-9)
    }

    @Test func readsAHeaderlessTable() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.headerless, named: "invert.lut", in: folder)
        #expect(look.format.name == "1dl")
        #expect(look.transform.apply(SIMD3(0, 1, 100.0 / 255)) == SIMD3(1, 0, 155.0 / 255))
    }

    @Test func readsHalfDomainAndHalfOutputs() throws {
        let folder = try TemporaryDirectory()
        let half = try OCIOReference.read(Self.halfDomain, named: "half.lut", in: folder)
        let lut = try #require(half.transform.operations.first as? LUT1DOp)
        guard case .points(let points) = lut.curves[0].inputs else { Issue.record("not listed inputs"); return }
        #expect(points.first == -65504 && points.last == 65504)
        // 0.5 is a half value: its entry exactly.
        #expect(half.transform.apply(SIMD3(repeating: 0.5)).x == (pow(0.5, 1 / 2.2) * 65535).rounded() / 65535)
        let outputs = try OCIOReference.read(Self.halfOutputs, named: "gain.lut", in: folder)
        #expect(outputs.transform.apply(SIMD3(1, 1, 1)) == SIMD3(0.5, 1, 1.5))
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        try OCIOReference.expectAgreement([("log.lut", Self.tenBit), ("invert.lut", Self.headerless), ("half.lut", Self.halfDomain), ("gain.lut", Self.halfOutputs)], bitDepth: bitDepth)
    }

    @Test func depthFromFileName() {
        #expect(Discreet1DLFormat.depth(fromFileName: "log_to10.lut")?.bits == 10)
        #expect(Discreet1DLFormat.depth(fromFileName: "lin_to16f.lut")?.half == true)
        #expect(Discreet1DLFormat.depth(fromFileName: "look.lut") == nil)
    }

    @Test func refusesBadFiles() throws {
        let cases: [(String, Int)] = [
            ("LUT: 2 256\n" + Self.headerless + Self.headerless, 1),
            ("LUT: 1 256 300\n" + Self.headerless, 1),
            ("LUT: 1 999999999\n0\n", 1),
            ("LUT: 1 17\n" + (0..<17).map(String.init).joined(separator: "\n") + "\n", 1),
            ("LUT: 1 256\n" + Self.headerless.replacingOccurrences(of: "\n200\n", with: "\n200 1\n"), 57),
            ("LUT: 1 256\n" + Self.headerless.replacingOccurrences(of: "\n200\n", with: "\n-200\n"), 57),
            ("LUT: 1 256\n" + Self.headerless.replacingOccurrences(of: "\n200\n", with: "\n70000\n"), 57),
            ("LUT: 1 256\n" + Self.headerless + "7\n", 258),
            ("LUT: 3 256\n" + Self.headerless + Self.headerless, 513),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.lut") == line, "\(text.prefix(40))")
        }
        if OCIOReference.ocioconvert != nil {
            for (text, _) in [cases[0], cases[1], cases[7], cases[8]] {
                #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.lut"), "\(text.prefix(40))")
            }
        }
    }
}

/// Half-float bit patterns for the tests, worked out independently of the reader's own code.
enum HalfBits {
    static func value(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1F), fraction = Double(bits & 0x3FF)
        let sign = bits & 0x8000 == 0 ? 1.0 : -1.0
        if exponent == 31 { return fraction == 0 ? sign * .infinity : .nan }
        return exponent == 0 ? sign * fraction / 1024 * pow(2, -14) : sign * (1 + fraction / 1024) * pow(2, Double(exponent - 15))
    }

    /// The bits of the half nearest `value` (0...65504), by search over the positive patterns.
    static func bits(_ value: Float) -> UInt16 {
        var best: UInt16 = 0
        var bestDistance = Double.infinity
        var low = 0, high = 0x7BFF
        while low <= high {
            let middle = (low + high) / 2
            let v = Self.value(UInt16(middle))
            if abs(v - Double(value)) < bestDistance { bestDistance = abs(v - Double(value)); best = UInt16(middle) }
            if v < Double(value) { low = middle + 1 } else { high = middle - 1 }
        }
        return best
    }
}
