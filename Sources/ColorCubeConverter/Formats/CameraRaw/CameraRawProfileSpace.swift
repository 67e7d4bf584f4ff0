import ColorCubeTransform

/// The spaces a written profile's table can be in (`convert --profile-space`), each with its
/// natural encoding: sRGB and Display P3 with the sRGB curve, Adobe RGB with gamma 2.2, ProPhoto
/// with gamma 1.8, Rec. 2020 with its own curve.
public enum CameraRawProfileSpace: String, Sendable, CaseIterable {
    case srgb
    case adobeRGB = "adobe-rgb"
    case prophoto
    case displayP3 = "display-p3"
    case rec2020

    public var primaries: RGBTablePrimaries {
        switch self {
        case .srgb: .sRGB
        case .adobeRGB: .adobeRGB
        case .prophoto: .proPhoto
        case .displayP3: .displayP3
        case .rec2020: .rec2020
        }
    }

    public var gamma: RGBTableGamma {
        switch self {
        case .srgb, .displayP3: .sRGB
        case .adobeRGB: .gamma22
        case .prophoto: .gamma18
        case .rec2020: .rec2020
        }
    }

    /// The operations from photos' sRGB-encoded values to linear ProPhoto RGB, as Camera Raw's
    /// pipeline holds a photo (the SDK's own matrix and curve).
    public static var photoToProPhoto: [any TransformOp] {
        var operations: [any TransformOp] = [RGBTableGammaOp(.sRGB, encodes: false)]
        if let matrix = RGBTablePrimaries.sRGB.fromTable, let op = try? MatrixOp(rows: matrix) { operations.append(op) }
        return operations
    }

    /// The operations back from linear ProPhoto RGB to photos' sRGB-encoded values.
    public static var proPhotoToPhoto: [any TransformOp] {
        var operations: [any TransformOp] = []
        if let matrix = RGBTablePrimaries.sRGB.toTable, let op = try? MatrixOp(rows: matrix) { operations.append(op) }
        return operations + [RGBTableGammaOp(.sRGB, encodes: true)]
    }

    /// The operations from this space's encoded values to linear ProPhoto RGB.
    public var toProPhoto: [any TransformOp] {
        var operations: [any TransformOp] = [RGBTableGammaOp(gamma, encodes: false)]
        if let matrix = primaries.fromTable, let op = try? MatrixOp(rows: matrix) { operations.append(op) }
        return operations
    }

    /// The operations from linear ProPhoto RGB to this space's encoded values; values beyond
    /// 0...1 keep their excess, for the writer to clamp and report.
    public var fromProPhoto: [any TransformOp] {
        var operations: [any TransformOp] = []
        if let matrix = primaries.toTable, let op = try? MatrixOp(rows: matrix) { operations.append(op) }
        return operations + [TableEncodingOp(gamma: gamma)]
    }
}
