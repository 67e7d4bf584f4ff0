import ColorCubeEngine

/// A raw video frame layout, named and laid out exactly as ffmpeg's pixel formats of the same name.
///
/// Frames are `width * height * bytesPerPixel` bytes with no padding between rows:
/// - `rgb24`, `bgr24`: 3 bytes per pixel in that order.
/// - `rgba`, `bgra`: 4 bytes per pixel; alpha is copied unchanged.
/// - `rgb48le`, `rgba64le`: 16-bit little-endian samples, 3 or 4 per pixel; alpha unchanged.
/// - `gbrpf32le`: planar Float32 little-endian, the green plane, then blue, then red. Values
///   outside 0...1 are clamped on input (NaN reads as 0) and the look's output is written
///   unclamped, as Core Image's `CIColorCube` does without extrapolation.
public enum RawPixelFormat: String, CaseIterable, Sendable {
    case rgb24
    case bgr24
    case rgba
    case bgra
    case rgb48le
    case rgba64le
    case gbrpf32le

    /// Bytes one pixel takes in a frame (summed over the planes for planar formats).
    public var bytesPerPixel: Int {
        switch self {
        case .rgb24, .bgr24: 3
        case .rgba, .bgra: 4
        case .rgb48le: 6
        case .rgba64le: 8
        case .gbrpf32le: 12
        }
    }

    /// Where red, green and blue sit in one interleaved pixel; nil for the planar format.
    public var layout: PixelLayout? {
        switch self {
        case .rgb24, .rgb48le: .rgb
        case .bgr24: .bgr
        case .rgba, .rgba64le: .rgba
        case .bgra: .bgra
        case .gbrpf32le: nil
        }
    }
}
