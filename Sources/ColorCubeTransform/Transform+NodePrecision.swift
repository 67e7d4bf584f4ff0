import ColorCubeCore

extension Transform {
    /// How far the look's result may stand from what its author meant, in output units (0...1 is
    /// the full range): the sum, over the chain's tables, of half the step their node values were
    /// stored with. A reference edited in Photoshop stores 8-bit nodes, each up to half of 1/255 off
    /// the value meant, and interpolating between such nodes stays within that bound; a .cube
    /// written from it keeps the same steps in its decimals. 0 for a look of formulas and of tables
    /// whose values fall on no coarse step (floats, 16-bit codes).
    ///
    /// A table's step is the one of 1/255, 1/1023 and 1/4095 that every one of its values lies on
    /// (within a hundredth of a step, which six decimals of text keep); a table whose values lie
    /// on several (0 and 1 alone, an exact 2-point identity) counts as exact. The scan stops at
    /// the first value off every step, so a float table costs a few reads. Dithering uses the
    /// result: a colour the look moves by less than this is one it leaves where it was.
    public func nodePrecision() -> Double {
        var total = 0.0
        for operation in operations {
            if let lattice = operation as? LUT3DOp {
                var steps = StepFinder()
                lattice.table.forEachChunk { _, entries in
                    for entry in entries where !steps.isEmpty {
                        steps.meet(Double(entry.x))
                        steps.meet(Double(entry.y))
                        steps.meet(Double(entry.z))
                    }
                }
                total += steps.halfStep
            } else if let table = operation as? LUT1DOp {
                total += table.curves.map { curve in
                    var steps = StepFinder()
                    for value in curve.outputs where !steps.isEmpty { steps.meet(value) }
                    return steps.halfStep
                }.max() ?? 0
            }
        }
        return total
    }
}

/// The node steps (8, 10 and 12 bits, coarsest first) that every value met so far lies on.
private struct StepFinder {
    private var scales: [Double] = [255, 1023, 4095]

    /// True when some value fell on none of the steps.
    var isEmpty: Bool { scales.isEmpty }

    /// Half the step every value lies on; 0 when none is, or when several are (values such as 0,
    /// 1/3 and 1 lie on every step: an exact table, not a stored one).
    var halfStep: Double { scales.count == 1 ? 0.5 / scales[0] : 0 }

    mutating func meet(_ value: Double) {
        scales.removeAll { scale in
            let scaled = value * scale
            return !(abs(scaled - scaled.rounded()) <= 0.01)
        }
    }
}
