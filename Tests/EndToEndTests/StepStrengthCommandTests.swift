import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

/// `apply 'a.cube@0.5+b.cube'`: a strength per step of a chain.
@Suite struct StepStrengthCommandTests {
    @Test func aStepsStrengthIsTheWholeLookStrengthOfThatStep() throws {
        let scratch = try Scratch()
        try ApplyCommandTests.writePhoto(scratch.file("photo.png"))
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let whole = try CommandRunner.run(["apply", look, scratch.file("photo.png"), "-o", scratch.file("whole.png"), "--strength", "0.3"])
        let step = try CommandRunner.run(["apply", look + "@30%", scratch.file("photo.png"), "-o", scratch.file("step.png")])
        #expect(whole.status == 0 && step.status == 0, "\(whole.stderr)\(step.stderr)")
        guard case .eight(let a) = try PNGFile.read(path: scratch.file("whole.png")).pixels,
              case .eight(let b) = try PNGFile.read(path: scratch.file("step.png")).pixels else {
            Issue.record("not 8-bit outputs")
            return
        }
        // One is mixed by the engine, the other folded into the lattice: within one code of each other.
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func aBadStrengthIsOneClearError() throws {
        let scratch = try Scratch()
        try ApplyCommandTests.writePhoto(scratch.file("photo.png"))
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let result = try CommandRunner.run(["apply", look + "@1.5+" + look, scratch.file("photo.png"), "-o", scratch.file("out.png")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: \(look)@1.5: \"1.5\" after @ is not a strength; a step's strength is a number "
            + "from 0 to 1 or a percentage, e.g. film.cube@0.6 or film.cube@60%\n")
        #expect(!scratch.exists("out.png"))
    }
}
