import ArgumentParser
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

/// Options that choose and shape the LUT engine, shared by every command that applies a look.
struct EngineOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Interpolation of every 3D LUT: trilinear (Core Image's), tetrahedral or nearest "
        + "(default: as the look's file states, as a CLF may, else trilinear)."))
    var interpolation: Interpolation?

    @Option(help: ArgumentHelp("Strength of the look, 0 to 1: out = in + S * (look(in) - in). For a Lightroom or Camera Raw profile: "
        + "its amount, within the profile's range (up to 2; default: the profile's own)."))
    var strength: Float?

    @OptionGroup var reading: LookReadOptions

    @OptionGroup var spaces: SpaceOptions

    func validate() throws {
        if let strength, !(0...2).contains(strength) {
            throw ValidationError("--strength must be between 0 and 1 (up to 2 for a Camera Raw profile), got \(strength)")
        }
    }

    /// Reads the look once and prepares the engine; reports what was noticed about the look.
    /// - Parameter colorMemory: which 8-bit results the engine keeps (see `ColorMemory`): none for
    ///   thumbnails, every colour for streams of frames, the colours met lately otherwise.
    func loadEngine(look lookPath: String, ignoreProfile: Bool, colorMemory: ColorMemory = .recent,
                    pixelLimit: PixelLimit) throws -> LUTEngine {
        try loadEngines(look: lookPath, ignoreProfile: ignoreProfile, colorMemory: colorMemory, pixelLimit: pixelLimit).pictures
    }

    /// The engines a run needs (`Engines`): one unless the look is applied in a colour space,
    /// where photos default to sRGB and clips to camera Rec.709, and pictures and clips that name
    /// their own space get engines of their own.
    func loadEngines(look lookPath: String, ignoreProfile: Bool, colorMemory: ColorMemory = .recent,
                     pixelLimit: PixelLimit) throws -> Engines {
        var look = try LookSpec.read(lookPath, options: reading.options(ignoreProfile: ignoreProfile, pixelLimit: pixelLimit))
        Diagnostics.report(look, path: lookPath)
        var strength = self.strength ?? 1
        if look.hasCameraRawTable {
            // A profile's amount is its own strength: blended where Camera Raw blends it.
            if let asked = self.strength { look = try look.withCameraRawAmount(Double(asked)) }
            strength = 1
        } else if strength > 1 {
            throw CommandFailure("--strength \(strength) is above 1, which only a Camera Raw profile's amount allows")
        }
        let (interpolation, engineStrength) = (interpolation, strength)
        let makeEngine: @Sendable (Transform) throws -> LUTEngine = { transform in
            try LUTEngine(transform: transform, interpolation: interpolation, strength: engineStrength, colorMemory: colorMemory)
        }
        let declared = PictureSpaceEngines(look: look, lookPath: lookPath, spaces: spaces, makeEngine: makeEngine)
        if let hdrSpace = spaces.hdrLookSpace {
            // A look made for HDR video sees only HDR clips, in their own space; anything else is refused.
            let plain = try makeEngine(look.transform)
            return Engines(look: look, pictures: plain, clips: plain, declared: declared) { color in
                guard let space = color.hdrSpace else {
                    throw CommandFailure("the look expects HDR video (\(hdrSpace.name), --look-space), and this clip is SDR; "
                        + "give an SDR --look-space for it")
                }
                return try declared.engine(in: space)
            }
        }
        let pictures = try makeEngine(try spaces.wrap(look, path: lookPath).transform)
        guard spaces.isSet, spaces.imageSpace == nil else { return Engines(look: look, pictures: pictures, clips: pictures, declared: declared) }
        let clips = try makeEngine(try spaces.wrap(look, path: lookPath, defaultSpace: SpaceOptions.clipSpace).transform)
        // An SDR clip whose tags name another space (sRGB, P3, gamma 2.2, linear) is converted from it.
        let clipSpace = ColorSpaces.named(SpaceOptions.clipSpace)?.id
        return Engines(look: look, pictures: pictures, clips: clips, declared: declared) { color in
            guard let space = color.sdrSpace, space.id != clipSpace else { return nil }
            return try declared.engine(in: space)
        }
    }
}

/// The engines of one run: for photos and raw frames, for SDR clips, for pictures whose files name
/// their own space, and (for a look made for HDR video) for each HDR clip in its own space.
struct Engines {
    /// The look as read, before any conversion between colour spaces.
    let look: Look
    let pictures: LUTEngine
    let clips: LUTEngine
    let declared: PictureSpaceEngines
    /// `VideoApplier.Options.engineForClip`: for a look in a colour space, the engine of a clip
    /// whose tags name a space of its own (an HDR space for a look made for HDR video).
    var forClip: (@Sendable (VideoColor) throws -> LUTEngine?)?

    /// The look's own precision (`Transform.nodePrecision()`), which dithering leaves alone.
    var lookPrecision: Double { look.transform.nodePrecision() }
}
