import ColorCubeCore
import Foundation
import Testing

@Suite struct PixelLimitTests {
    @Test func theDefaultIsFiveHundredMillionPixels() {
        #expect(PixelLimit.defaultMaxPixels == 500_000_000)
        #expect(PixelLimit.default.maxPixels == 500_000_000)
        #expect(PixelLimit.environmentVariable == "COLORCUBE_MAX_PIXELS")
    }

    @Test func sizesUpToTheLimitPass() throws {
        let limit = PixelLimit(maxPixels: 12)
        try limit.check(width: 3, height: 4, path: "a.png")
        try limit.check(width: 12, height: 1, path: "a.png")
        try limit.check(width: 1, height: 1, path: "a.png")
        // Non-positive sizes are for the caller's own validation, not this check.
        try limit.check(width: 0, height: 100, path: "a.png")
        try limit.check(width: -5, height: 100, path: "a.png")
    }

    @Test func sizesOverTheLimitAreRefusedWithTheirEvidence() {
        let limit = PixelLimit(maxPixels: 12)
        #expect(throws: PixelLimitError.tooManyPixels(path: "a.png", width: 13, height: 1, limit: 12)) {
            try limit.check(width: 13, height: 1, path: "a.png")
        }
        #expect(throws: PixelLimitError.tooManyPixels(path: "standard input", width: 100_000, height: 100_000,
                                                      limit: 500_000_000)) {
            try PixelLimit.default.check(width: 100_000, height: 100_000, path: "standard input")
        }
        // A product that overflows Int is over any limit.
        #expect(throws: PixelLimitError.tooManyPixels(path: "x", width: Int.max, height: 2, limit: Int.max)) {
            try PixelLimit(maxPixels: .max).check(width: .max, height: 2, path: "x")
        }
    }

    @Test func theErrorNamesThePathTheSizeAndTheLimit() {
        let error = PixelLimitError.tooManyPixels(path: "photo.png", width: 30_000, height: 20_000, limit: 500_000_000)
        #expect(error.description == "photo.png: 30000x20000 is 600,000,000 pixels, over the limit of 500,000,000 pixels")
        #expect(error.path == "photo.png")
        #expect(error.remedy == .raisePixelLimit)
        let overflow = PixelLimitError.tooManyPixels(path: "x", width: Int.max, height: 2, limit: 7)
        #expect(overflow.description == "x: \(Int.max)x2 is more than 9,223,372,036,854,775,807 pixels, over the limit of 7 pixels")
    }

    @Test func limitsParseFromText() {
        #expect(PixelLimit(parsing: "800000000") == PixelLimit(maxPixels: 800_000_000))
        #expect(PixelLimit(parsing: "1_000_000") == PixelLimit(maxPixels: 1_000_000))
        #expect(PixelLimit(parsing: "2,000") == PixelLimit(maxPixels: 2000))
        for bad in ["", "0", "-5", "1e9", "abc", " 12", "12 ", "99999999999999999999999"] {
            #expect(PixelLimit(parsing: bad) == nil, "\(bad)")
        }
        #expect(PixelLimit(maxPixels: 0).maxPixels == 1)
    }

    @Test func theEnvironmentSetsTheLimit() {
        // The variable is process-wide: set, read and restore within one test.
        let saved = PixelLimit.environmentValue
        defer {
            if let saved { setenv(PixelLimit.environmentVariable, saved, 1) } else { unsetenv(PixelLimit.environmentVariable) }
        }
        unsetenv(PixelLimit.environmentVariable)
        #expect(PixelLimit.environmentValue == nil)
        #expect(PixelLimit.fromEnvironment() == .default)
        setenv(PixelLimit.environmentVariable, "1234", 1)
        #expect(PixelLimit.fromEnvironment() == PixelLimit(maxPixels: 1234))
        setenv(PixelLimit.environmentVariable, "lots", 1)
        #expect(PixelLimit.environmentValue == "lots")
        #expect(PixelLimit.fromEnvironment() == .default)
    }
}
