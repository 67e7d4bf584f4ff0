import ColorCubeCore
import ColorCubeTransform

/// A text LUT format whose file is its transform and nothing more (no title, no notes): reading
/// it is `parse` on the file's bytes. Its conforming types write only `parse` and get `read`.
public protocol TextTransformFormat: LUTFileFormat {
    /// Parses the file's text into its operations; `path` names the file in errors.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform
}

extension TextTransformFormat {
    public func read(path: String, options: LUTReadOptions) throws -> Look {
        Look(transform: try TextLUTParsing.parseFile(path: path) { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path)
        }, format: self)
    }
}
