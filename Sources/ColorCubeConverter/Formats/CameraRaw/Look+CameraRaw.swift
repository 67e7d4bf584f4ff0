import ColorCubeLooks
import ColorCubeTransform

extension Look {
    /// True when the look holds a Camera Raw profile's table, whose amount replaces a strength.
    public var hasCameraRawTable: Bool {
        transform.operations.contains { $0 is RGBTableOp }
    }

    /// The look with every Camera Raw table at `amount` (1 is the table as made, 0 none of it, up
    /// to 2 where the profile allows), as Lightroom's Amount slider sets it: blended in the
    /// table's encoded values and rounded to 0.01, as the SDK does.
    /// - Throws: `CameraRawProfileError.amount` when `amount` is outside a table's range.
    public func withCameraRawAmount(_ amount: Double) throws(CameraRawProfileError) -> Look {
        var look = self
        var operations = transform.operations
        for (index, operation) in operations.enumerated() {
            guard let table = operation as? RGBTableOp else { continue }
            let rounded = (amount * 100).rounded() / 100
            guard table.amountRange.contains(rounded) else { throw .amount(asked: amount, range: table.amountRange) }
            operations[index] = table.withAmount(rounded)
        }
        look.transform = Transform(operations)
        return look
    }
}

extension Look {
    /// For inverting: a look holding a Camera Raw table as one cube of `size` (the whole chain
    /// baked: the table has no closed-form inverse, and a cube is inverted numerically); any
    /// other look as it is.
    public func bakingCameraRawTables(size: Int) throws(TransformError) -> Look {
        guard hasCameraRawTable else { return self }
        var look = self
        look.transform = Transform(cube: try baked(size: size).table)
        return look
    }
}
