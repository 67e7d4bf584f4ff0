import ColorCubeImaging
import Testing

@Suite struct SampleDepthTests {
    @Test(arguments: [255, 1023, 4095])
    func everySixteenBitValueGoesToTheNearestCode(top: Int) {
        for value in 0...65535 {
            let exact = Double(value) * Double(top) / 65535
            let reduced = Int(SampleDepth.reduce(UInt16(value), toMaximum: UInt32(top)))
            // Nearest: within half a code; ties cannot occur for these tops (65535 is odd).
            #expect(abs(Double(reduced) - exact) <= 0.5, "value \(value) to \(reduced) of \(top)")
        }
    }

    @Test func eightBitCodesWidenedComeBackUnchanged() {
        for code in 0...255 {
            #expect(SampleDepth.eightBit(UInt16(code * 257)) == UInt8(code))
        }
    }
}
