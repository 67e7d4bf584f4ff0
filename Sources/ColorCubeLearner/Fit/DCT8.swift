import Foundation

/// The 8x8 two-dimensional DCT-II JPEG uses, orthonormal (JPEG's 1/4 C(u) C(v) scale), on one
/// block held as eight rows of eight in memory of its own: a band's thousands of blocks go
/// through one `DCT8` and allocate nothing. Not for sharing between threads: each holds its block.
///
/// Rows are (row, column) for samples and (row frequency, column frequency) for coefficients.
/// The transform is two matrix products with the basis B, basis[u][x] = C(u)/2 cos((2x + 1) u pi / 16):
/// forward B X B^T, inverse B^T C B, each row of a product summed in order of the inner index.
final class DCT8 {
    typealias Row = SIMD8<Double>

    /// The block transformed in place: samples in and coefficients out (`forward`), or the reverse.
    let block: UnsafeMutablePointer<Row>
    private let scratch: UnsafeMutablePointer<Row>
    private let basis: UnsafeMutablePointer<Row>
    /// transposed[x][u] = basis[u][x].
    private let transposed: UnsafeMutablePointer<Row>
    private let storage: UnsafeMutablePointer<Row>

    init() {
        storage = .allocate(capacity: 32)
        storage.initialize(repeating: .zero, count: 32)
        block = storage
        scratch = storage + 8
        basis = storage + 16
        transposed = storage + 24
        for u in 0..<8 {
            let scale = u == 0 ? (1 / 8.0).squareRoot() : 0.5
            for x in 0..<8 { basis[u][x] = scale * cos(Double((2 * x + 1) * u) * Double.pi / 16) }
        }
        for x in 0..<8 { for u in 0..<8 { transposed[x][u] = basis[u][x] } }
    }

    deinit {
        storage.deinitialize(count: 32)
        storage.deallocate()
    }

    /// The block's samples become their coefficients: B X B^T.
    func forward() {
        Self.product(block, transposed, into: scratch)
        Self.product(basis, scratch, into: block)
    }

    /// The block's coefficients become their samples: B^T C B.
    func inverse() {
        Self.product(block, basis, into: scratch)
        Self.product(transposed, scratch, into: block)
    }

    /// The matrix product A B into `result` (which is neither A nor B): row r is
    /// sum_i A[r][i] B[i].
    @inline(__always)
    private static func product(_ a: UnsafePointer<Row>, _ b: UnsafePointer<Row>, into result: UnsafeMutablePointer<Row>) {
        for r in 0..<8 {
            let row = a[r]
            var sum = Row.zero
            for i in 0..<8 { sum += row[i] * b[i] }
            result[r] = sum
        }
    }
}
