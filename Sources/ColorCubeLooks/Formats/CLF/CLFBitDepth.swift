/// A CLF node's `inBitDepth` or `outBitDepth`: how the numbers in its file are scaled.
///
/// Integer depths are code values (a 10-bit 1.0 is 1023); float depths are 1.0 at 1.0. Every
/// operation works on values where 1.0 is white, so a node's file values are divided by their
/// depth's `scale` as OpenColorIO does: table outputs by the output depth, a matrix by
/// output / input, a range's input ends by the input depth and output ends by the output depth.
/// Log, exponent and CDL parameters do not depend on the depths.
public enum CLFBitDepth: String, CaseIterable, Sendable {
    case int8 = "8i", int10 = "10i", int12 = "12i", int16 = "16i", float16 = "16f", float32 = "32f"

    /// The file value that stands for 1.0.
    public var scale: Double {
        switch self {
        case .int8: 255
        case .int10: 1023
        case .int12: 4095
        case .int16: 65535
        case .float16, .float32: 1
        }
    }

    /// The names a file may use, for messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
