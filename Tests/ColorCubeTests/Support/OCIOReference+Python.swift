import Foundation

/// PyOpenColorIO 2.6 (`SpaceOracle.python`) as the reference for what a LUT reader accepts: it
/// reads a file as a FileTransform (linear interpolation) and applies it at given inputs, with
/// exact powers and logarithms rather than OpenColorIO's default approximations, or says why it
/// refuses the file.
extension OCIOReference {
    /// What OpenColorIO made of a file.
    enum Verdict {
        case refused(String)
        /// OpenColorIO's output at each input (NaN where it gave a value JSON cannot carry).
        case outputs([SIMD3<Double>])

        var isRefused: Bool {
            if case .refused = self { true } else { false }
        }
    }

    static let verdictScript = """
        import json, math, sys, PyOpenColorIO as ocio
        ocio.SetLoggingLevel(ocio.LOGGING_LEVEL_NONE)
        config = ocio.Config.CreateRaw()
        inputs = json.load(sys.stdin)
        try:
            transform = ocio.FileTransform(sys.argv[1], interpolation=ocio.INTERP_LINEAR)
            # OpenColorIO's default optimisation evaluates pow, exp and log with fast approximations
            # (1^2.2 gives 1.0000223); without them the reference is exact to Float32.
            exact = ocio.OPTIMIZATION_DEFAULT & ~ocio.OPTIMIZATION_FAST_LOG_EXP_POW
            processor = config.getProcessor(transform).getOptimizedCPUProcessor(ocio.OptimizationFlags(exact))
        except Exception as error:
            print(json.dumps({"refused": str(error)}))
        else:
            outputs = [processor.applyRGB([float(v) for v in rgb]) for rgb in inputs]
            print(json.dumps({"outputs": [[v if math.isfinite(v) else None for v in rgb] for rgb in outputs]}))
        """

    /// OpenColorIO's verdict on the LUT file at `path`, applied at `inputs`.
    static func verdict(lut path: String, inputs: [SIMD3<Double>], python: String) throws -> Verdict {
        let payload = try JSONSerialization.data(withJSONObject: inputs.map { [$0.x, $0.y, $0.z] })
        let output = try SpaceOracle.run(python, ["-c", verdictScript, path], input: payload)
        let object = try JSONSerialization.jsonObject(with: output) as? [String: Any]
        if let reason = object?["refused"] as? String { return .refused(reason) }
        guard let rows = object?["outputs"] as? [[Any]] else { throw CocoaError(.fileReadCorruptFile) }
        return .outputs(rows.map { row in
            let values = row.map { ($0 as? NSNumber)?.doubleValue ?? .nan }
            return SIMD3(values[0], values[1], values[2])
        })
    }
}
