/// A zero-initialised vector of per-node RGB values (a zero fourth lane), freed by its owner.
/// It stays on its owner's thread; `LatticeOperator.multiply` shares vectors with other threads
/// only as `DisjointRegions` (each plane of constant blue written by one thread, the input read by
/// all and written by none).
struct Vector {
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
