import ColorCubeTransform

extension Look {
    /// The transform that undoes this look, in the form `format` holds best.
    ///
    /// Each operation is inverted as `TransformInverter.invert(_:size:)` inverts it, 3D LUTs into
    /// lattices of `cubeSize` points per axis (default: the look's natural size). The exact
    /// inverse of a 1D LUT lists its inputs one by one (the forward table's outputs), which only a
    /// format of chains (CLF) writes; so when every operation is per channel, no `cubeSize` is
    /// asked for and the format holds a 1D table with evenly spaced inputs (.cube, .spi1d, .csp),
    /// the inverse is that table (`TransformInverter.invertedCurves(of:length:)`) instead of a
    /// cube baked from the exact inverse. An inverse the format holds as it is (a CDL's reverse
    /// style into an ASC CDL file, which refuses it by name) is kept.
    /// - Throws: `TransformError.notInvertible` from an operation with no inverse, `.invalidBakeSize`.
    public func inverse(writtenAs format: any LUTFileFormat, cubeSize: Int? = nil) throws(TransformError) -> Transform {
        let exact = try TransformInverter.invert(transform, size: cubeSize ?? TransformBaker.naturalSize(of: transform))
        let listsInputs = exact.operations.contains { operation in
            (operation as? LUT1DOp)?.curves.contains { if case .points = $0.inputs { true } else { false } } ?? false
        }
        guard cubeSize == nil, !format.holdsChains, listsInputs || !format.holdsExactly(exact),
              let curves = try? TransformInverter.invertedCurves(of: transform) else { return exact }
        let table = Transform([curves])
        return format.holdsExactly(table) ? table : exact
    }
}
