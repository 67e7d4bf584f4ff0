/// A picture larger than the pixel limit allows (see `PixelLimit`).
public enum PixelLimitError: ColorCubeError, Equatable {
    /// `path` declares `width` x `height` pixels, more than `limit`.
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)

    public var path: String? {
        switch self {
        case .tooManyPixels(let path, _, _, _): path
        }
    }

    public var remedy: ErrorRemedy? { .raisePixelLimit }

    public var description: String {
        switch self {
        case .tooManyPixels(let path, let width, let height, let limit):
            let count = PixelLimit.pixelCount(width: width, height: height).map(Self.grouped) ?? "more than \(Self.grouped(Int.max))"
            return "\(path): \(width)x\(height) is \(count) pixels, over the limit of \(Self.grouped(limit)) pixels"
        }
    }

    /// `value` with commas between groups of three digits ("500,000,000").
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
