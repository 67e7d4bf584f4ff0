/// What a Camera Raw RGB table does with colours its primaries cannot hold (the payload's gamut
/// field): `clip` them to the table's gamut, or `extend`: keep the part beyond 0...1 aside and
/// add it back after the table.
public enum RGBTableGamut: UInt32, Sendable, CaseIterable {
    case clip = 0
    case extend = 1

    /// "clip" or "extend", for `info`.
    public var name: String { self == .clip ? "clip" : "extend" }
}
