import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeLooks
import ColorCubeTransform

/// The engines for pictures whose files name their colour space (an OpenEXR's colorInteropID or
/// chromaticities, a DPX's transfer characteristic) and clips whose tags do, made once per space:
/// with `--look-space` and no `--image-space`, such a picture is converted from its own space, not
/// the default one.
///
/// Also where a picture of floats meets a look that would clip it: with no `--look-space`, a look
/// that starts with a 3D LUT over 0...1 clamps every value above 1.0 of a scene-linear picture,
/// which is said once per run.
final class PictureSpaceEngines: Sendable {
    private let look: Look
    private let lookPath: String
    private let spaces: SpaceOptions
    private let makeEngine: @Sendable (Transform) throws -> LUTEngine
    private let made = Locked<[String: LUTEngine]>([:])
    private let warned = Locked<Set<String>>([])

    init(look: Look, lookPath: String, spaces: SpaceOptions, makeEngine: @escaping @Sendable (Transform) throws -> LUTEngine) {
        self.look = look
        self.lookPath = lookPath
        self.spaces = spaces
        self.makeEngine = makeEngine
    }

    /// The engine for `image` (read from `path`), or nil for the run's own.
    func engine(for image: RasterImage, path: String) throws -> LUTEngine? {
        if let hdr = spaces.hdrLookSpace {
            throw CommandFailure("\(path): the look expects HDR video (\(hdr.name), --look-space), and pictures are SDR; "
                + "give an SDR --look-space for them")
        }
        guard spaces.lookSpace != nil else {
            if image.pixels.isFloat, clipsAboveOne { warnOnce("clip", Self.clipWarning(lookPath: lookPath, path: path)) }
            return nil
        }
        guard spaces.imageSpace == nil, let space = declaredSpace(of: image, path: path),
              space.id != ColorSpaces.named(SpaceOptions.photoSpace)?.id else { return nil }
        return try engine(in: space)
    }

    /// The engine for pictures and clips in `space`, made once.
    func engine(in space: ColorSpace) throws -> LUTEngine {
        if let engine = made.withLock({ $0[space.id] }) { return engine }
        let engine = try makeEngine(try spaces.wrap(look, path: lookPath, defaultSpace: space.id).transform)
        made.withLock { $0[space.id] = engine }
        return engine
    }

    /// The space `image`'s file names, if the catalogue knows it.
    private func declaredSpace(of image: RasterImage, path: String) -> ColorSpace? {
        if let id = image.metadata.colorSpaceID {
            guard let space = ColorSpaces.named(id) else {
                warnOnce(id, "\(path): its file names the colour space \"\(id)\", which colorcube does not know; "
                    + "it is read as \(SpaceOptions.photoSpace) (give --image-space to say what it is)")
                return nil
            }
            return space
        }
        return image.metadata.chromaticities.flatMap(ColorSpaces.sceneLinear(chromaticities:))
    }

    /// True when the look's first step is a 3D LUT whose domain ends at 1.0 or below: values above
    /// it clamp there.
    private var clipsAboveOne: Bool {
        guard let first = look.transform.operations.first as? LUT3DOp else { return false }
        return first.domainMax.max() <= 1
    }

    static func clipWarning(lookPath: String, path: String) -> String {
        "\(path) holds scene-linear floats, and \(lookPath) starts with a 3D LUT over 0...1: values above 1.0 "
            + "(most highlights) clip. Give the space the look expects, e.g. --look-space acescct, or a look with a shaper"
    }

    private func warnOnce(_ key: String, _ text: String) {
        let first = warned.withLock { $0.insert(key).inserted }
        if first { Diagnostics.warning(text) }
    }
}
