import Foundation
import Testing

/// `--max-pixels` and COLORCUBE_MAX_PIXELS, with raw frame streams.
@Suite struct PixelLimitCommandTests {
    static let look = Resources.packageRoot.appendingPathComponent("LUTs/warm-fade.cube").path

    @Test func anAbsurdFrameSizeIsOneClearMessage() throws {
        let result = try CommandRunner.run(["apply", Self.look, "--raw", "100000x100000", "--pixel-format", "rgb24"],
                                           input: Data())
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "colorcube: error: standard input: 100000x100000 is 10,000,000,000 pixels, over the limit "
            + "of 500,000,000 pixels; raise the limit with --max-pixels N (or COLORCUBE_MAX_PIXELS=N)\n")
    }

    @Test func theLimitIsCheckedBeforeTheLookIsRead() throws {
        // The look does not exist: the size is refused first, naming the input file.
        let result = try CommandRunner.run(["apply", "/no/such/look.cube", "--raw", "30x20", "--pixel-format", "rgb24",
                                            "--max-pixels", "599", "-i", "/dev/null"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("colorcube: error: /dev/null: 30x20 is 600 pixels, over the limit of 599 pixels; "))
    }

    @Test func maxPixelsRaisesAndLowersTheLimit() throws {
        let frame = Data(count: 30 * 20 * 3)
        let fits = try CommandRunner.run(["apply", Self.look, "--raw", "30x20", "--pixel-format", "rgb24", "--max-pixels", "600"],
                                         input: frame)
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(fits.stdout.count == frame.count)
        let environment = try CommandRunner.run(["apply", Self.look, "--raw", "30x20", "--pixel-format", "rgb24"],
                                                input: frame, environment: ["COLORCUBE_MAX_PIXELS": "599"])
        #expect(environment.status == 1)
        #expect(environment.stderr.contains("over the limit of 599 pixels"))
        // The option wins over the environment.
        let both = try CommandRunner.run(["apply", Self.look, "--raw", "30x20", "--pixel-format", "rgb24", "--max-pixels", "600"],
                                         input: frame, environment: ["COLORCUBE_MAX_PIXELS": "599"])
        #expect(both.status == 0, "\(both.stderr)")
    }

    @Test func badLimitsAreUsageErrors() throws {
        let zero = try CommandRunner.run(["apply", Self.look, "--raw", "2x2", "--pixel-format", "rgb24", "--max-pixels", "0"],
                                         input: Data())
        #expect(zero.status == 64)
        #expect(zero.stderr.hasPrefix("Error: --max-pixels must be at least 1, got 0\n"))
        let environment = try CommandRunner.run(["apply", Self.look, "--raw", "2x2", "--pixel-format", "rgb24"],
                                                input: Data(), environment: ["COLORCUBE_MAX_PIXELS": "lots"])
        #expect(environment.status == 64)
        #expect(environment.stderr.hasPrefix("Error: COLORCUBE_MAX_PIXELS=lots is not a positive whole number of pixels\n"))
    }
}
