/// Where the time of applying a look to image files goes, summed over images (and so over
/// threads: with several images in flight the sum exceeds the wall time).
public struct StageTimes: Sendable, Equatable {
    public var decode: Duration = .zero
    /// Converting an embedded ICC profile to sRGB.
    public var colorManagement: Duration = .zero
    public var lut: Duration = .zero
    public var encode: Duration = .zero

    public init() {}

    public var total: Duration { decode + colorManagement + lut + encode }

    /// Adds the time since `clock` to `stage` and moves `clock` to now: one stopwatch for the
    /// stages of a file or a frame.
    mutating func lap(_ stage: WritableKeyPath<StageTimes, Duration>, since clock: inout ContinuousClock.Instant) {
        let now = ContinuousClock.now
        self[keyPath: stage] += now - clock
        clock = now
    }

    public static func += (lhs: inout StageTimes, rhs: StageTimes) {
        lhs.decode += rhs.decode
        lhs.colorManagement += rhs.colorManagement
        lhs.lut += rhs.lut
        lhs.encode += rhs.encode
    }
}
