import ArgumentParser
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

/// Options that choose and shape the LUT engine, shared by every command that applies a look.
struct EngineOptions: ParsableArguments {
    @Option(help: "Interpolation: trilinear (Core Image's), tetrahedral or nearest.")
    var interpolation: Interpolation = .trilinear

    @Option(help: "Strength of the look, 0 to 1: out = in + S * (look(in) - in).")
    var strength: Float = 1

    @OptionGroup var reading: LookReadOptions

    @OptionGroup var spaces: SpaceOptions

    func validate() throws {
        guard (0...1).contains(strength) else { throw ValidationError("--strength must be between 0 and 1, got \(strength)") }
    }

    /// Reads the look once and prepares the engine; reports what was noticed about the look.
    /// - Parameter colorMemory: which 8-bit results the engine keeps (see `ColorMemory`): none for
    ///   thumbnails, every colour for streams of frames, the colours met lately otherwise.
    func loadEngine(look lookPath: String, ignoreProfile: Bool, colorMemory: ColorMemory = .recent,
                    pixelLimit: PixelLimit) throws -> LUTEngine {
        try loadEngines(look: lookPath, ignoreProfile: ignoreProfile, colorMemory: colorMemory, pixelLimit: pixelLimit).pictures
    }

    /// The engines for photos (and raw frames) and for video clips: one engine unless the look is
    /// applied in a colour space, where photos default to sRGB and clips to camera Rec.709.
    /// Also the engines for pictures whose files name their own space (`PictureSpaceEngines`).
    func loadEngines(look lookPath: String, ignoreProfile: Bool, colorMemory: ColorMemory = .recent,
                     pixelLimit: PixelLimit) throws -> (pictures: LUTEngine, clips: LUTEngine, declared: PictureSpaceEngines) {
        let look = try LookSpec.read(lookPath, options: reading.options(ignoreProfile: ignoreProfile, pixelLimit: pixelLimit))
        Diagnostics.report(look, path: lookPath)
        let (interpolation, strength) = (interpolation, strength)
        let makeEngine: @Sendable (Transform) throws -> LUTEngine = { transform in
            try LUTEngine(transform: transform, interpolation: interpolation, strength: strength, colorMemory: colorMemory)
        }
        let declared = PictureSpaceEngines(look: look, lookPath: lookPath, spaces: spaces, makeEngine: makeEngine)
        let pictures = try makeEngine(try spaces.wrap(look, path: lookPath).transform)
        guard spaces.isSet, spaces.imageSpace == nil else { return (pictures, pictures, declared) }
        let clips = try makeEngine(try spaces.wrap(look, path: lookPath, defaultSpace: SpaceOptions.clipSpace).transform)
        return (pictures, clips, declared)
    }
}
