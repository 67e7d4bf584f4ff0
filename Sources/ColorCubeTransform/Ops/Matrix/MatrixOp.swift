/// A 3x3 matrix with offsets (CLF's 3x4 Matrix, a .spimtx): out = M * in + offset.
///
/// `rows[i]` is output channel i's weights of red, green and blue. No clamping. A diagonal matrix
/// scales each channel alone, so that NaN or infinity in one channel stays in it (0 times NaN
/// would spread it), as OpenColorIO's optimiser makes such a matrix a scale.
public struct MatrixOp: TransformOp {
    public let rows: [SIMD3<Double>]
    public let offset: SIMD3<Double>

    /// - Throws: `TransformError.invalidOperation` unless there are three rows of finite values.
    public init(rows: [SIMD3<Double>], offset: SIMD3<Double> = .zero) throws(TransformError) {
        guard rows.count == 3 else {
            throw .invalidOperation(operation: "matrix", reason: "needs 3 rows, found \(rows.count)")
        }
        guard rows.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }),
              offset.x.isFinite, offset.y.isFinite, offset.z.isFinite else {
            throw .invalidOperation(operation: "matrix", reason: "every coefficient and offset must be a finite number")
        }
        self.rows = rows
        self.offset = offset
        self.isPerChannel = Self.isDiagonal(rows)
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        if isPerChannel { return diagonal * rgb + offset }
        return SIMD3((rows[0] * rgb).sum(), (rows[1] * rgb).sum(), (rows[2] * rgb).sum()) + offset
    }

    /// The diagonal's coefficients: red's weight of red, green's of green, blue's of blue.
    var diagonal: SIMD3<Double> { SIMD3(rows[0].x, rows[1].y, rows[2].z) }

    /// A diagonal matrix over three planes, each channel alone: `value * scale + offset`.
    static func scale<Value: BinaryFloatingPoint & SIMDScalar>(
        _ red: UnsafeMutablePointer<Value>, _ green: UnsafeMutablePointer<Value>, _ blue: UnsafeMutablePointer<Value>,
        _ count: Int, by scale: SIMD3<Value>, plus offset: SIMD3<Value>
    ) {
        for i in 0..<count {
            red[i] = scale.x * red[i] + offset.x
            green[i] = scale.y * green[i] + offset.y
            blue[i] = scale.z * blue[i] + offset.z
        }
    }

    /// The same sums as `apply(_:)`, with the rows read once.
    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        let r0 = rows[0], r1 = rows[1], r2 = rows[2], offset = self.offset
        if isPerChannel { return Self.scale(red, green, blue, count, by: diagonal, plus: offset) }
        for i in 0..<count {
            let rgb = SIMD3(red[i], green[i], blue[i])
            red[i] = (r0 * rgb).sum() + offset.x
            green[i] = (r1 * rgb).sum() + offset.y
            blue[i] = (r2 * rgb).sum() + offset.z
        }
    }

    /// True when no output channel reads another input channel (a diagonal matrix); decided once,
    /// as `apply` asks it at every colour.
    public let isPerChannel: Bool

    private static func isDiagonal(_ rows: [SIMD3<Double>]) -> Bool {
        rows[0].y == 0 && rows[0].z == 0 && rows[1].x == 0 && rows[1].z == 0 && rows[2].x == 0 && rows[2].y == 0
    }

    public var isIdentity: Bool {
        rows[0] == SIMD3(1, 0, 0) && rows[1] == SIMD3(0, 1, 0) && rows[2] == SIMD3(0, 0, 1) && offset == .zero
    }

    /// `self` then `other`, as one matrix: other.M * (M * x + o) + other.o.
    public func then(_ other: MatrixOp) -> MatrixOp {
        var product: [SIMD3<Double>] = []
        for row in other.rows {
            product.append(SIMD3((0..<3).map { column in
                row.x * rows[0][column] + row.y * rows[1][column] + row.z * rows[2][column]
            }))
        }
        // Products and sums of finite values stay finite for any real look's coefficients; the
        // unchecked path keeps `then` total.
        return MatrixOp(unchecked: product, offset: other.apply(offset))
    }

    private init(unchecked rows: [SIMD3<Double>], offset: SIMD3<Double>) {
        self.rows = rows
        self.offset = offset
        self.isPerChannel = Self.isDiagonal(rows)
    }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        let (a, b, c) = (rows[0], rows[1], rows[2])
        // The adjugate's rows are the cross products of the matrix's columns... written out by rows.
        let cofactor0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let cofactor1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let cofactor2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let determinant = a.x * cofactor0.x + a.y * cofactor1.x + a.z * cofactor2.x
        let scale = max(rows.map(\.largestMagnitude).max() ?? 1, 1e-300)
        guard abs(determinant) > 1e-12 * scale * scale * scale else {
            throw .notInvertible(operation: "matrix", reason: "it is singular (determinant \(Describe.number(determinant))): "
                + "it maps distinct colours to the same one, for example every grey to one colour in a black-and-white look")
        }
        let inverse = [cofactor0 / determinant, cofactor1 / determinant, cofactor2 / determinant]
        let matrix = MatrixOp(unchecked: inverse, offset: .zero)
        return [MatrixOp(unchecked: inverse, offset: -matrix.apply(offset))]
    }

    public var description: String {
        let body = rows.map { "[\(Describe.number($0.x)) \(Describe.number($0.y)) \(Describe.number($0.z))]" }.joined(separator: " ")
        return "matrix \(body)" + (offset == .zero ? "" : ", offset \(Describe.triple(offset))")
    }
}
