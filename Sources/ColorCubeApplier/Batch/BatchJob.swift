import ColorCubeImaging

/// One image or video clip to process: where it comes from, where it goes, and the relative path that names it
/// in messages and decides its shard.
public struct BatchJob: Sendable, Equatable {
    public var input: String
    public var output: String
    /// The path below the output root ("a/b.jpg"), the same on every machine for the same inputs.
    public var relativePath: String
    /// The output format; nil keeps the input's.
    public var outputFormat: ImageFormat?
    /// True for a video clip (graded through FFmpeg by `VideoApplier`), false for an image.
    public var isVideo: Bool

    public init(input: String, output: String, relativePath: String, outputFormat: ImageFormat? = nil, isVideo: Bool = false) {
        self.input = input
        self.output = output
        self.relativePath = relativePath
        self.outputFormat = outputFormat
        self.isVideo = isVideo
    }
}
