import ColorCubeApplier
import ColorCubeImaging
import Foundation
import Testing

/// The CIEDE2000 measure Tools/bench-learn-looks reads: COLORCUBE_DELTAE_LIST names a file of
/// lines `look<TAB>kind<TAB>expected.png<TAB>observed.png`; the images of each look and kind are
/// compared pixel by pixel with the learner's CIEDE2000 and one line per group is printed,
/// `deltae<TAB>look<TAB>kind<TAB>mean<TAB>p99<TAB>pixels`, pooled over its images.
@Suite struct LearnBenchDeltaETests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COLORCUBE_DELTAE_LIST"] != nil, "set COLORCUBE_DELTAE_LIST to measure"))
    func meansOverTheListedImages() throws {
        let path = ProcessInfo.processInfo.environment["COLORCUBE_DELTAE_LIST"] ?? ""
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var groups: [String: [Double]] = [:]
        var order: [String] = []
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            try #require(fields.count == 4, "expected 4 fields in \(line)")
            let key = fields[0] + "\t" + fields[1]
            func read(_ file: String) throws -> RasterImage {
                var image = try ImageApplier.read(file).image
                try ColorConversion.convertToSRGB(&image, path: file)
                return image
            }
            let expected = try read(fields[2]), observed = try read(fields[3])
            try #require(expected.width == observed.width && expected.height == observed.height,
                         "\(fields[2]) and \(fields[3]) differ in size")
            let values = LearnBench.differences(expected, observed)
            try #require(values.count == expected.pixelCount, "\(fields[2]) or \(fields[3]) is not 8-bit")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []] += values
        }
        #expect(!order.isEmpty)
        for key in order {
            let values = groups[key] ?? []
            let summary = LearnBench.summary(values)
            print("deltae\t\(key)\t\(String(format: "%.3f", summary.mean))\t\(String(format: "%.3f", summary.p99))\t\(values.count)")
        }
    }
}
