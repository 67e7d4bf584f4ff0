import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeTransform

/// `--profile-space` and `--name`: how `convert` writes a Lightroom or Camera Raw profile (.xmp).
struct ProfileOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("For .xmp output (a Lightroom / Camera Raw profile): the space its table is in, "
        + "srgb, adobe-rgb, prophoto, display-p3 or rec2020, each with its own curve (default: srgb).", valueName: "space"))
    var profileSpace: CameraRawProfileSpace?

    @Option(help: ArgumentHelp("For .xmp output: the profile's name in Lightroom (default: the output file's name).",
                               valueName: "name"))
    var name: String?

    /// Refuses the options for formats other than a profile.
    func validate(for format: any LUTFileFormat) throws {
        guard !(format is CameraRawProfileFormat) else { return }
        if profileSpace != nil { throw ValidationError("--profile-space applies to .xmp output (a Camera Raw profile), not \(format.name)") }
        if name != nil { throw ValidationError("--name applies to .xmp output (a Camera Raw profile), not \(format.name)") }
    }

    /// For a profile: the look seen from the table's space, the format set to that space, the
    /// table's size (default 32, the largest Camera Raw reads), and how far Camera Raw's reading of
    /// the written table is from the look (`CameraRawProfileFormat.evaluationError`), which is what
    /// to report rather than the baking's. Other formats pass unchanged.
    func prepare(_ look: Look, format: any LUTFileFormat, size: Int?) -> (Look, any LUTFileFormat, Int?, BakingError?) {
        guard var profile = format as? CameraRawProfileFormat else { return (look, format, size, nil) }
        profile.space = profileSpace ?? .srgb
        let size = size ?? RGBTableOp.largest3D
        let prepared = profile.prepared(look, size: size)
        return (prepared, profile, size, profile.evaluationError(of: prepared, size: size, against: look))
    }
}

extension CameraRawProfileSpace: ExpressibleByArgument {}
