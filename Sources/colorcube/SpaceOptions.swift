import ArgumentParser
import ColorCubeLooks
import ColorCubeTransform

/// `--look-space`, `--look-output-space` and `--image-space`: in which colour spaces a look and a
/// picture hold their values (shared by `apply`, `preview` and `convert`).
struct SpaceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The colour space the look expects (its input), by ID, name or alias (colorcube spaces lists them), "
        + "e.g. slog3_sgamut3cine. The picture is converted into it before the look and back after.", valueName: "space"))
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

    /// True when any of the options is given.
    var isSet: Bool { lookSpace != nil || lookOutputSpace != nil || imageSpace != nil }

    func validate() throws {
        if lookSpace == nil, lookOutputSpace != nil {
            throw ValidationError("--look-output-space needs --look-space (the space the look expects)")
        }
        if lookSpace == nil, imageSpace != nil {
            throw ValidationError("--image-space needs --look-space: without it the look takes the picture's values as they are")
        }
        for name in [lookSpace, lookOutputSpace, imageSpace].compactMap({ $0 }) {
            do { _ = try ColorSpaces.lookUp(name) } catch { throw ValidationError(error.description + " (colorcube spaces lists them)") }
        }
    }

    /// `look` as pictures in `--image-space` (else `defaultSpace`) see it; `look` itself when
    /// no space is given.
    func wrap(_ look: Look, defaultSpace: String = photoSpace) throws -> Look {
        guard let lookSpace else { return look }
        let picture = try ColorSpaces.lookUp(imageSpace ?? defaultSpace)
        return try look.seen(from: picture, lookSpace: try ColorSpaces.lookUp(lookSpace),
                             lookOutputSpace: try lookOutputSpace.map { name throws(ColorSpaceError) in try ColorSpaces.lookUp(name) })
    }

    /// The line `info`-style commands print: "look in S-Log3 S-Gamut3.Cine, picture in sRGB ...".
    func summary(defaultSpace: String = photoSpace) -> String? {
        guard let lookSpace, let look = ColorSpaces.named(lookSpace), let picture = ColorSpaces.named(imageSpace ?? defaultSpace) else {
            return nil
        }
        let output = lookOutputSpace.flatMap(ColorSpaces.named).map { $0.name } ?? look.name
        return "pictures in \(picture.name) go into \(look.name) for the look, and back from \(output)"
    }
}
