import ColorCubeCore
import ColorCubeImaging

/// Problems with a batch found before any image is written.
public enum BatchError: ColorCubeError, Equatable {
    case noInputs
    case missingInput(path: String)
    /// Two inputs would be written to the same output path.
    case outputCollision(first: String, second: String, output: String)
    /// The output folder lies inside an input folder.
    case outputInsideInput(output: String, input: String)
    /// Several inputs, or a folder, and an output that is an existing file.
    case outputNotAFolder(path: String)
    /// A single output file in a format colorcube does not write.
    case unsupportedOutputFormat(path: String)
    /// The input was given as a clip (a clip to a clip's name) but is not one colorcube can read:
    /// `reason` says what it is instead.
    case notAClip(path: String, reason: String)
    /// A clip given with an output file that is not a video container's name (`clip.mp4 -o a.jpg`).
    case clipToNonVideoOutput(input: String, output: String)

    /// A walk that found no image to process.
    case noImages(inputs: [String], passedOver: [String])

    /// The file or folder the problem is with: the missing input, the output.
    public var path: String? {
        switch self {
        case .noInputs: nil
        case .missingInput(let path), .outputNotAFolder(let path), .unsupportedOutputFormat(let path), .notAClip(let path, _): path
        case .outputCollision(_, _, let output), .outputInsideInput(let output, _), .clipToNonVideoOutput(_, let output): output
        case .noImages(let inputs, _): inputs.first
        }
    }

    public var description: String {
        switch self {
        case .noInputs:
            "no input images given"
        case .noImages(let inputs, let passedOver):
            "found no image to grade in \(inputs.joined(separator: ", "))"
                + (passedOver.isEmpty ? "" : "; passed over \(passedOver.joined(separator: " and "))")
        case .missingInput(let path):
            "\(path): no such file or folder"
        case .outputCollision(let first, let second, let output):
            "\(first) and \(second) would both be written to \(output); rename one, or apply them in separate runs"
        case .outputNotAFolder(let path):
            "\(path) is a file, but these inputs need an output folder; give a folder name"
        case .unsupportedOutputFormat(let path):
            "cannot write \(path): colorcube writes \(ImageCodecs.writableExtensions) images; name the output "
                + "with one of those extensions, or give a folder"
        case .clipToNonVideoOutput(let input, let output):
            "cannot write \(output): \(input) is a video clip, and .\(FilePath.pathExtension(output)) is no video container; "
                + "name the output .mp4, .mov, .mkv, .webm or another container ffmpeg writes, or give a folder"
        case .notAClip(let path, let reason):
            "cannot read \(path): \(reason); give a video clip (MP4, MOV, Matroska, WebM, AVI, MXF, MPEG, FLV)"
        case .outputInsideInput(let output, let input):
            "the output folder \(output) is inside the input folder \(input), so a later run would take outputs "
                + "for inputs; choose an output folder outside it"
        }
    }
}
