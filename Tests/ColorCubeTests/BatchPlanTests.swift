import ColorCubeApplier
import ColorCubeCore
import ColorCubeImaging
import Testing

/// How inputs map to outputs, and what is refused before anything is written.
@Suite struct BatchPlanTests {
    /// in/a.png, in/b.jpg, in/sub/c.png, in/sub/deeper/d.jpg, plus a hidden file, a hidden folder and
    /// a text file, which the walk skips.
    static func tree(_ folder: TemporaryDirectory) throws -> String {
        let root = folder.file("in")
        try BatchFixtures.writeImage(root + "/a.png")
        try BatchFixtures.writeImage(root + "/b.jpg")
        try BatchFixtures.writeImage(root + "/sub/c.png")
        try BatchFixtures.writeImage(root + "/sub/deeper/d.jpg")
        try BatchFixtures.writeImage(root + "/.hidden.png")
        try BatchFixtures.writeImage(root + "/.cache/e.png")
        try BatchFixtures.writeText(root + "/notes.txt")
        return root
    }

    @Test func aSingleFolderLandsDirectlyInTheOutput() throws {
        let folder = try TemporaryDirectory()
        let input = try Self.tree(folder)
        let plan = try BatchPlan(inputs: [input], output: folder.file("out"))
        #expect(!plan.singleFile)
        #expect(plan.jobs == [
            BatchJob(input: input + "/a.png", output: folder.file("out/a.png"), relativePath: "a.png", outputFormat: .png),
            BatchJob(input: input + "/b.jpg", output: folder.file("out/b.jpg"), relativePath: "b.jpg", outputFormat: .jpeg),
            BatchJob(input: input + "/sub/c.png", output: folder.file("out/sub/c.png"), relativePath: "sub/c.png", outputFormat: .png),
            BatchJob(input: input + "/sub/deeper/d.jpg", output: folder.file("out/sub/deeper/d.jpg"),
                     relativePath: "sub/deeper/d.jpg", outputFormat: .jpeg),
        ])
    }

    @Test func aTrailingSlashChangesNothing() throws {
        let folder = try TemporaryDirectory()
        let input = try Self.tree(folder)
        let plain = try BatchPlan(inputs: [input], output: folder.file("out"))
        let slashed = try BatchPlan(inputs: [input + "/"], output: folder.file("out") + "/")
        #expect(slashed.jobs.map(\.relativePath) == plain.jobs.map(\.relativePath))
        #expect(slashed.jobs.map(\.output) == plain.jobs.map(\.output))
    }

    @Test func severalInputsKeepTheirFolderNamesAndLooseFilesLandAtTheTop() throws {
        let folder = try TemporaryDirectory()
        let input = try Self.tree(folder)
        try BatchFixtures.writeImage(folder.file("other/x.png"))
        try BatchFixtures.writeImage(folder.file("loose.jpg"))
        let plan = try BatchPlan(inputs: [input, folder.file("other"), folder.file("loose.jpg")], output: folder.file("out"))
        #expect(plan.jobs.map(\.relativePath) == ["in/a.png", "in/b.jpg", "in/sub/c.png", "in/sub/deeper/d.jpg",
                                                   "other/x.png", "loose.jpg"])
        #expect(plan.jobs.map(\.output) == plan.jobs.map { folder.file("out/" + $0.relativePath) })
    }

    @Test func oneFileAndAnImageNameWritesThatFileInThatFormat() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeImage(folder.file("photo.png"))
        let plan = try BatchPlan(inputs: [folder.file("photo.png")], output: folder.file("graded.JPG"))
        #expect(plan.singleFile)
        #expect(plan.jobs == [BatchJob(input: folder.file("photo.png"), output: folder.file("graded.JPG"),
                                       relativePath: "graded.JPG", outputFormat: .jpeg)])
        // Without an extension the output is a folder.
        let intoFolder = try BatchPlan(inputs: [folder.file("photo.png")], output: folder.file("graded"))
        #expect(!intoFolder.singleFile)
        #expect(intoFolder.jobs.map(\.output) == [folder.file("graded/photo.png")])
    }

    @Test func filesNamedDirectlyAreTakenEvenIfNotImages() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeText(folder.file("notes.png"))
        let plan = try BatchPlan(inputs: [folder.file("notes.png")], output: folder.file("out"))
        #expect(plan.jobs.map(\.relativePath) == ["notes.png"])
    }

    @Test func badInputsAndOutputsAreRefused() throws {
        let folder = try TemporaryDirectory()
        let input = try Self.tree(folder)
        #expect(throws: BatchError.noInputs) { try BatchPlan(inputs: [], output: folder.file("out")) }
        #expect(throws: BatchError.missingInput(path: folder.file("nope"))) {
            try BatchPlan(inputs: [input, folder.file("nope")], output: folder.file("out"))
        }
        #expect(throws: BatchError.unsupportedOutputFormat(path: folder.file("a.gif"))) {
            try BatchPlan(inputs: [input + "/a.png"], output: folder.file("a.gif"))
        }
        try BatchFixtures.writeText(folder.file("file-out"))
        #expect(throws: BatchError.outputNotAFolder(path: folder.file("file-out"))) {
            try BatchPlan(inputs: [input], output: folder.file("file-out"))
        }
        #expect(throws: BatchError.outputInsideInput(output: input + "/graded", input: input)) {
            try BatchPlan(inputs: [input], output: input + "/graded")
        }
        #expect(throws: SafetyError.outputIsInput(path: input + "/a.png")) {
            try BatchPlan(inputs: [input + "/a.png"], output: input + "/a.png")
        }
        #expect(throws: SafetyError.outputIsInput(path: folder.file("look.png"))) {
            try BatchPlan(inputs: [input + "/a.png"], output: folder.file("look.png"), protected: [folder.file("look.png")])
        }
    }

    @Test func twoInputsForOneOutputAreRefused() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeImage(folder.file("x/same.png"))
        try BatchFixtures.writeImage(folder.file("y/same.png"))
        #expect(throws: BatchError.outputCollision(first: folder.file("x/same.png"), second: folder.file("y/same.png"),
                                                   output: folder.file("out/same.png"))) {
            try BatchPlan(inputs: [folder.file("x/same.png"), folder.file("y/same.png")], output: folder.file("out"))
        }
    }

    @Test func shardsSplitThePlanByRelativePath() throws {
        let folder = try TemporaryDirectory()
        for index in 0..<24 { try BatchFixtures.writeImage(folder.file("in/f\(index % 3)/p\(index).png")) }
        let whole = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"))
        #expect(whole.jobs.count == 24)
        var covered: [String] = []
        for index in 0..<4 {
            let shard = try #require(Shard(index: index, count: 4))
            let part = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"), shard: shard)
            #expect(part.jobs.allSatisfy { shard.contains($0.relativePath) })
            covered += part.jobs.map(\.relativePath)
        }
        #expect(covered.sorted() == whole.jobs.map(\.relativePath).sorted())
    }
}
