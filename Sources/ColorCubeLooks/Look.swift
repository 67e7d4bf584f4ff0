import ColorCubeCore
import ColorCubeTransform

/// A look read from a file: its transform (the chain of operations the file describes, never
/// baked on reading) and what the file and its reading said about it.
public struct Look: Sendable {
    /// What the look does: the file's operations, the first applied first.
    public var transform: Transform
    /// The format the file was read as.
    public var format: any LUTFileFormat
    /// The file's own title or description, when it has one.
    public var title: String?
    /// Set when a reference image's colours were converted from its embedded profile.
    public var convertedFromProfile: String?
    /// Set for reference images: how rough the table is (see `Roughness`).
    public var roughness: Roughness?
    /// Set when the look was read from a lossily compressed image (a JPEG reference): that
    /// format's name. Its compression noise is part of the look.
    public var lossySource: String?
    /// What the reader decided that the user should know (which layout an image LUT was read
    /// in, which correction of a collection was taken).
    public var notes: [String] = []
    /// What the file says the look expects and gives (a CLF's `InputDescriptor` and
    /// `OutputDescriptor`), as written; nil when it says nothing.
    public var inputDescriptor: String?
    /// For an image LUT whose layout was chosen by its content: the other layouts it could be
    /// read in (a front end says how to ask for one). Empty otherwise.
    public var otherLayouts: [ImageLUTLayout.Kind] = []
    public var outputDescriptor: String?
    /// Set when an ICC display profile (which takes CIE XYZ to a display's codes) is applied to a
    /// picture's RGB, with no conversion to XYZ before it: the profile's path.
    public var displayProfileOnRGB: String?
    /// For a look made of several (`init(chain:)`): each one's format as `describe` gives it, in
    /// order; empty for a look read from one file.
    public var chainedFormats: [String] = []

    public init(transform: Transform, format: any LUTFileFormat, title: String? = nil) {
        self.transform = transform
        self.format = format
        self.title = title
    }

    /// A look that is one plain cube over 0...1.
    public init(cube table: some CubeTable & Sendable, format: any LUTFileFormat, title: String? = nil) {
        self.init(transform: Transform(cube: table), format: format, title: title)
    }

    /// Several looks applied one after the other, the first first, as one look: their operations
    /// in order, nothing baked. The format and title are the first look's (`chainedFormats` lists
    /// every look's); notes and warnings of every look are kept.
    /// - Precondition: `looks` is not empty.
    public init(chain looks: [Look]) {
        precondition(!looks.isEmpty, "a chain needs at least one look")
        self = looks[0]
        if looks.count > 1 { chainedFormats = looks.map { $0.format.describe($0) } }
        for next in looks.dropFirst() {
            transform = transform.then(next.transform)
            notes += next.notes
            convertedFromProfile = convertedFromProfile ?? next.convertedFromProfile
            lossySource = lossySource ?? next.lossySource
            roughness = roughness ?? next.roughness
            displayProfileOnRGB = displayProfileOnRGB ?? next.displayProfileOnRGB
        }
    }

    /// The warnings every command shows for this look, worked out once here: a converted profile
    /// is a note, a lossy source and signs of a spatial edit are warnings.
    public var warnings: [LookWarning] {
        var result: [LookWarning] = []
        if let profile = convertedFromProfile { result.append(.convertedFromProfile(profile)) }
        if let lossySource { result.append(.lossySource(format: lossySource)) }
        if let roughness, roughness.suggestsSpatialEdit { result.append(.spatialEdit(roughness)) }
        if let displayProfileOnRGB { result.append(.displayProfileOnRGB(path: displayProfileOnRGB)) }
        return result
    }

    /// The look's only lattice when it is one plain cube over 0...1 (a Hald PNG, a plain .cube):
    /// such a look needs no baking.
    public var plainTable: (any CubeTable & Sendable)? { transform.plainLattice?.table }

    /// The look as a plain cube of `size` (default: its natural size), and how far that cube is
    /// from the look. A plain cube of that size comes back as it is, with no error.
    public func baked(size: Int? = nil) throws(TransformError) -> (table: any CubeTable & Sendable, error: BakingError?) {
        let size = size ?? TransformBaker.naturalSize(of: transform)
        if let plain = transform.plainLattice, plain.size == size { return (plain.table, nil) }
        let table = try TransformBaker.bake(transform, size: size)
        return (table, TransformBaker.measure(table, against: transform))
    }
}
