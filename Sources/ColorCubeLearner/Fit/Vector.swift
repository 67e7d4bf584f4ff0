/// A zero-initialised vector of per-node RGB values (a zero fourth lane), freed by its owner.
/// Sendable under `DisjointRegions`' rule: threads that share a vector write disjoint slots (in
/// `LatticeOperator.multiply`, each plane of constant blue belongs to one thread) and read only
/// vectors no thread writes.
struct Vector: @unchecked Sendable {
    let base: UnsafeMutablePointer<SIMD4<Double>>

    init(_ count: Int) {
        base = .allocate(capacity: count)
        base.initialize(repeating: .zero, count: count)
    }

    func deallocate() { base.deallocate() }

    subscript(slot: Int) -> SIMD4<Double> {
        @inline(__always) get { base[slot] }
        @inline(__always) nonmutating set { base[slot] = newValue }
    }
}
