/// What the global model a fit chose says about the edit: the form it took and, through it, how
/// colours the pairs do not show were filled in (see <doc:LearningALook>).
public struct GlobalModelSummary: Sendable, Equatable {
    /// The space the model's curves act in: sRGB codes or ProPhoto RGB for channel curves,
    /// ProPhoto RGB for a hue-keeping curve, sRGB for luminance curves.
    public var curveSpace: CurveSpace
    /// Whether the model changes saturation as an HSV saturation slider does.
    public var changesSaturation: Bool
    /// Whether the model maps each colour by its luminance alone (black and white, sepia or other
    /// toning of a grey image).
    public var followsLuminance: Bool
    /// Whether the model is a tone curve that keeps hue in ProPhoto RGB (Adobe's and RawTherapee's
    /// film-like curve) followed by a change of saturation.
    public var keepsHue: Bool
    /// That change of saturation's factor averaged over HSV saturation; 1 for the other forms.
    public var saturationFactor: Double
}
