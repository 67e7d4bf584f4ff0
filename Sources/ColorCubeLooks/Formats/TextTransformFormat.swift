import ColorCubeCore
import ColorCubeTransform

/// A text LUT format whose file is its transform and nothing more (no title, no notes): reading
/// it is `parse` on the file's bytes, and its `read(path:options:)` is `readTransform(path:)`.
/// Internal: the one way in is the format's `read`, through the table (see the article
/// "One way in per format" in the module's documentation).
protocol TextTransformFormat: LUTFileFormat {
    /// Parses the file's text into its operations; `path` names the file in errors.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform
}

extension TextTransformFormat {
    /// The look of the file at `path`: its bytes parsed by `parse`.
    func readTransform(path: String) throws -> Look {
        Look(transform: try TextLUTParsing.parseFile(path: path) { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path)
        }, format: self)
    }
}
