import ArgumentParser
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

/// `--look-space`, `--look-output-space` and `--image-space`: in which colour spaces a look and a
/// picture hold their values (shared by `apply`, `preview` and `convert`).
struct SpaceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The colour space the look expects (its input), by ID, name or alias (colorcube spaces lists them), "
        + "e.g. slog3_sgamut3cine, or auto for the spaces a CLF's descriptors name. The picture is converted into it before "
        + "the look and back after.", valueName: "space"))
    var lookSpace: String?

    @Option(help: ArgumentHelp("The colour space the look gives (default: --look-space), e.g. camera_rec709 for a log-to-Rec.709 LUT.",
                               valueName: "space"))
    var lookOutputSpace: String?

    @Option(help: ArgumentHelp("The colour space of the pictures (default: srgb_tx, the sRGB curve over Rec.709, for photos "
        + "after their ICC profile; camera_rec709 for video clips).", valueName: "space"))
    var imageSpace: String?

    /// The default space of photos and raw frames: `sRGB Encoded Rec.709 (sRGB)`.
    static let photoSpace = "srgb_rec709_scene"
    /// The default space of SDR video clips (BT.709): `Camera Rec.709`.
    static let clipSpace = "ocio:itu709_rec709_scene"

    /// The space `--look-space` names when it is an HDR display space (PQ, HLG): such a look is
    /// applied to HDR clips in their own space, and to nothing else.
    var hdrLookSpace: ColorSpace? {
        guard let lookSpace, let space = try? ColorSpaces.lookUp(lookSpace), space.kind == .display,
              space.encoding == "hdr-video" else { return nil }
        return space
    }

    /// True when any of the options is given.
    var isSet: Bool { lookSpace != nil || lookOutputSpace != nil || imageSpace != nil }

    func validate() throws {
        if lookSpace == nil, lookOutputSpace != nil {
            throw ValidationError("--look-output-space needs --look-space (the space the look expects)")
        }
        if lookSpace == nil, imageSpace != nil {
            throw ValidationError("--image-space needs --look-space: without it the look takes the picture's values as they are")
        }
        for name in [lookSpace, lookOutputSpace, imageSpace].compactMap({ $0 }) where name.lowercased() != Self.auto {
            do { _ = try ColorSpaces.lookUp(name) } catch { throw ValidationError(error.description + " (colorcube spaces lists them)") }
        }
    }

    /// `--look-space auto`: the spaces the look's file names (a CLF's descriptors).
    static let auto = "auto"

    /// `look` (read from `path`) as pictures in `--image-space` (else `defaultSpace`) see it;
    /// `look` itself when no space is given.
    /// - Throws: `CommandFailure` for `--look-space auto` on a look whose file names no space.
    func wrap(_ look: Look, path: String, defaultSpace: String = photoSpace) throws -> Look {
        guard let lookSpace else { return look }
        let picture = try ColorSpaces.lookUp(imageSpace ?? defaultSpace)
        let described = look.describedSpaces
        let input: ColorSpace, output: ColorSpace?
        if lookSpace.lowercased() == Self.auto {
            guard let named = described.input else {
                throw CommandFailure("\(path): --look-space auto takes the space from the look's file, but "
                    + (look.inputDescriptor.map { "its InputDescriptor \"\($0.prefix(60))\" names no known colour space" }
                        ?? "it names none (only a CLF's InputDescriptor can)")
                    + "; give the space, e.g. --look-space slog3_sgamut3cine (colorcube spaces lists them)")
            }
            input = named
            output = try lookOutputSpace.map { name throws(ColorSpaceError) in try ColorSpaces.lookUp(name) } ?? described.output
        } else {
            input = try ColorSpaces.lookUp(lookSpace)
            output = try lookOutputSpace.map { name throws(ColorSpaceError) in try ColorSpaces.lookUp(name) }
        }
        return try look.seen(from: picture, lookSpace: input, lookOutputSpace: output)
    }
}
