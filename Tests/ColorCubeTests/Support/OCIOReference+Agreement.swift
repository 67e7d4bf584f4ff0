import ColorCubeLooks
import Foundation
import Testing

extension OCIOReference {
    /// Reads each (name, text) file with colorcube and with PyOpenColorIO at `inputs`, records an
    /// issue where a channel differs by more than `tolerance` relative to OpenColorIO's value
    /// (relative to 0.1 for values nearer 0), and returns the largest such difference.
    static func largestRelativeDifference(_ files: [(name: String, text: String)], inputs: [SIMD3<Double>], python: String,
                                          tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        let folder = try TemporaryDirectory()
        var largest = 0.0
        for (name, text) in files {
            let path = try write(text, named: name, in: folder)
            let ours = try LUTReader.read(path: path).transform
            guard case .outputs(let theirs) = try verdict(lut: path, inputs: inputs, python: python) else {
                Issue.record("OpenColorIO refuses \(name)", sourceLocation: sourceLocation)
                continue
            }
            for (input, reference) in zip(inputs, theirs) {
                let value = ours.apply(input)
                for channel in 0..<3 {
                    // OpenColorIO's non-finite values come back as NaN.
                    if !reference[channel].isFinite, !value[channel].isFinite { continue }
                    let difference = abs(value[channel] - reference[channel]) / max(abs(reference[channel]), 0.1)
                    largest = max(largest, difference.isNaN ? .infinity : difference)
                    if !(difference <= tolerance) {
                        Issue.record("\(name) at \(input): ours \(value[channel]), OpenColorIO \(reference[channel])",
                                     sourceLocation: sourceLocation)
                    }
                }
            }
        }
        return largest
    }
}
