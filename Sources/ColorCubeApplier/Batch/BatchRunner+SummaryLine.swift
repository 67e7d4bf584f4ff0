extension BatchRunner.Summary {
    /// The line a front end prints when a folder is graded: "12 done, 0 skipped, 1 failed", then
    /// what the plan passed over (`BatchPlan.passedOverSummary`), outputs another run finished at
    /// the same time, and temporary files of an interrupted run removed.
    /// - Parameter keptExisting: true when outputs that existed were left as they were (a resumed run).
    public func line(passedOver: [String], keptExisting: Bool) -> String {
        "\(done) done, \(skipped) skipped, \(failed) failed"
            + (passedOver.isEmpty ? "" : "; passed over " + passedOver.joined(separator: " and "))
            + (finishedElsewhere == 0 ? "" : "; " + Self.finishedElsewherePhrase(finishedElsewhere, kept: keptExisting))
            + (temporariesRemoved > 0
                ? "; removed \(temporariesRemoved) temporary file\(temporariesRemoved == 1 ? "" : "s") left by an interrupted run" : "")
    }

    /// "1 output was also finished by another run at the same time (its file was kept)".
    static func finishedElsewherePhrase(_ count: Int, kept: Bool) -> String {
        (count == 1 ? "1 output was" : "\(count) outputs were") + " also finished by another run at the same time"
            + (kept ? (count == 1 ? " (its file was kept)" : " (their files were kept)") : "")
    }
}
