/// Number formatting for operation descriptions.
enum Describe {
    /// A number as short as it can be written without losing what matters to a reader: up to six
    /// significant decimals, no trailing zeros ("1", "0.5", "-0.0625").
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format6(value))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Six decimals, computed without Foundation.
    private static func format6(_ value: Double) -> String {
        let scaled = (abs(value) * 1_000_000).rounded()
        let whole = Int64(scaled / 1_000_000)
        let fraction = Int64(scaled) - whole * 1_000_000
        let digits = String(fraction)
        return (value < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - digits.count) + digits
    }

    static func triple(_ value: SIMD3<Double>) -> String {
        value.x == value.y && value.y == value.z
            ? number(value.x)
            : "(\(number(value.x)), \(number(value.y)), \(number(value.z)))"
    }
}
