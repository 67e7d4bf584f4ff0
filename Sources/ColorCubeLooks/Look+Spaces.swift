import ColorCubeTransform

extension Look {
    /// The conversion from `source`'s values to `target`'s as a look (its operations exactly,
    /// as a CLF holds them), titled "S-Log3 S-Gamut3.Cine to sRGB Encoded Rec.709 (sRGB)".
    /// - Throws: `ColorSpaceError.crossesKinds` between a scene and a display space.
    public init(conversionFrom source: ColorSpace, to target: ColorSpace) throws(ColorSpaceError) {
        self.init(transform: try ColorSpaces.conversion(from: source, to: target), format: CLFFormat(),
                  title: "\(source.name) to \(target.name)")
    }

    /// The colour spaces the file's descriptors name (a CLF's `InputDescriptor` and
    /// `OutputDescriptor` holding a space's ID, name or alias), or nil for each that names none.
    public var describedSpaces: (input: ColorSpace?, output: ColorSpace?) {
        (inputDescriptor.flatMap(ColorSpaces.named), outputDescriptor.flatMap(ColorSpaces.named))
    }

    /// This look as pictures in `pictureSpace` see it, when the look expects values in
    /// `lookSpace` and gives values in `lookOutputSpace`: the picture converted into the look's
    /// space, the look, and its result converted back into the picture's space. Values outside
    /// 0...1 after a conversion are kept; only a 3D LUT clamps, to its domain.
    /// - Throws: `ColorSpaceError.crossesKinds` when a conversion would cross from scene to display.
    public func seen(from pictureSpace: ColorSpace, lookSpace: ColorSpace,
                     lookOutputSpace: ColorSpace? = nil) throws(ColorSpaceError) -> Look {
        let before = try ColorSpaces.conversion(from: pictureSpace, to: lookSpace)
        let after = try ColorSpaces.conversion(from: lookOutputSpace ?? lookSpace, to: pictureSpace)
        var look = self
        look.transform = before.then(transform).then(after)
        return look
    }
}
