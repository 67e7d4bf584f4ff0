import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

extension ColorCubeCommand {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe LUT files: format, size, domain, output range, distance from the identity.",
            discussion: """
                For each LUT: its format, size, input domain, per-channel output range, whether it \
                is an identity (if not, the mean and largest CIEDE2000 difference of its nodes from \
                their input colours), whether Core Image's CIColorCube can take it (size 2 to 64, \
                values in 0...1) and any warnings. A LUT that cannot be read is reported and the \
                rest are still described; the exit status is then 1.
                """ + HelpExamples.info
        )

        @Argument(help: ArgumentHelp("LUT files: " + FormatArgument.readableList + "."))
        var luts: [String]

        @OptionGroup var reading: LookReadOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            guard !luts.isEmpty else { throw ValidationError("give at least one LUT file") }
        }

        func run() throws {
            var failed = false, described = 0
            for path in luts {
                do {
                    let look = try LookSpec.read(path, options: reading.options(pixelLimit: limits.pixelLimit))
                    let (table, _) = try look.baked()
                    let analysis = LUTAnalysis(measuring: table, roughness: look.roughness)
                    let coreImage = look.plainTable.map { $0.size <= LUTWriter.coreImageMaximumSize } == true
                        ? nil : try look.baked(size: LUTWriter.coreImageMaximumSize).error
                    if described > 0 { print() }
                    described += 1
                    print(Self.describe(path: path, look: look, analysis: analysis, coreImageBake: coreImage), terminator: "")
                } catch {
                    Diagnostics.error(Diagnostics.message(for: error, path: path))
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }

        /// The block printed for one LUT, one "label: value" line per property.
        static func describe(path: String, look: Look, analysis: LUTAnalysis, coreImageBake: BakingError?) -> String {
            let n = analysis.size
            var lines: [(String, String)] = []
            lines.append(("format", look.chainedFormats.isEmpty ? look.format.describe(look)
                : "a chain of \(look.chainedFormats.count) looks: " + look.chainedFormats.joined(separator: ", then ")))
            // What the reader decided (an image LUT's layout, a collection's correction).
            for note in look.notes { lines.append(("note", note)) }
            // A CLF's descriptors, and the colour spaces they name (--look-space auto takes those).
            let spaces = look.describedSpaces
            for (label, text, space) in [("input", look.inputDescriptor, spaces.input), ("output", look.outputDescriptor, spaces.output)] {
                guard let text else { continue }
                lines.append(("\(label) space", "\"\(text.prefix(80))\"" + (space.map { " (\($0.id), \($0.kind.rawValue)-referred)" } ?? " (not a colour space colorcube knows)")))
            }
            let operations = look.transform.operations
            if operations.count == 1, let lattice = operations[0] as? LUT3DOp {
                lines.append(("size", "\(n) (\(n)x\(n)x\(n), \(grouped(n * n * n)) nodes)"))
                lines.append(("domain", domain(lattice.domainMin, lattice.domainMax)))
            } else {
                lines.append(("chain", "\(operations.count) operation\(operations.count == 1 ? "" : "s")"))
                for (index, operation) in operations.enumerated() {
                    lines.append(("  \(index + 1)", operation.description))
                }
            }
            if look.transform.plainLattice == nil {
                if let plan = try? ChainPlan(look.transform) {
                    lines.append(("applied", plan.summary))
                }
                if let bake = coreImageBake {
                    lines.append(("baked", "to a \(LUTWriter.coreImageMaximumSize)-cube (Core Image data, Hald, plain .cube): "
                        + "up to \(Diagnostics.decimal(bake.maxCodes, places: 2)) 8-bit codes off, "
                        + "mean \(Diagnostics.decimal(bake.meanCodes, places: 3))"))
                }
            }
            lines.append(("output", outputRange(analysis)))
            if analysis.isIdentity {
                lines.append(("identity", "yes (every node within half an 8-bit code value of its input)"))
            } else if let mean = analysis.meanDeltaE, let largest = analysis.maxDeltaE {
                lines.append(("identity", "no: CIEDE2000 from identity mean \(Diagnostics.decimal(mean, places: 2)), "
                    + "largest \(Diagnostics.decimal(largest, places: 2))"))
            } else {
                lines.append(("identity", "no"))
            }
            let problems = analysis.coreImageProblems.map { problem in
                switch problem {
                case .tooLarge: "\(problem) (resample with convert --size \(LUTWriter.coreImageMaximumSize))"
                case .valuesOutsideUnitRange: problem.description
                }
            }
            lines.append(("Core Image", problems.isEmpty ? "yes" : "no: " + problems.joined(separator: "; ")))
            if !analysis.isIdentity, let first = look.transform.operations.first as? LUT3DOp, first.domainMax.max() <= 1 {
                lines.append(("scene-linear", "clipped above 1.0 (a 3D LUT over 0...1 comes first): apply it to OpenEXR "
                    + "and float pictures with --look-space, e.g. acescct"))
            }
            let warnings = self.warnings(path: path, look: look, analysis: analysis)
            if warnings.isEmpty {
                lines.append(("warnings", "none"))
            } else {
                for warning in warnings { lines.append(("warning", warning)) }
            }
            var text = "\(path)\n"
            for (label, value) in lines {
                text += "  " + (label + ":").padding(to: 12) + value + "\n"
            }
            return text
        }

        private static func domain(_ low: SIMD3<Double>, _ high: SIMD3<Double>) -> String {
            func number(_ value: Double) -> String {
                let text = Diagnostics.decimal(value, places: 4)
                var trimmed = Substring(text)
                while trimmed.contains("."), trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
                if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
                return String(trimmed)
            }
            if low.x == low.y, low.y == low.z, high.x == high.y, high.y == high.z {
                return "\(number(low.x))...\(number(high.x))"
            }
            return "red \(number(low.x))...\(number(high.x)), green \(number(low.y))...\(number(high.y)), "
                + "blue \(number(low.z))...\(number(high.z))"
        }

        private static func outputRange(_ analysis: LUTAnalysis) -> String {
            let names = ["red", "green", "blue"]
            return (0..<3).map { channel in
                let low = Double(analysis.outputMin[channel]), high = Double(analysis.outputMax[channel])
                return "\(names[channel]) \(Diagnostics.decimal(low, places: 3))...\(Diagnostics.decimal(high, places: 3))"
            }.joined(separator: ", ")
        }

        private static func warnings(path: String, look: Look, analysis: LUTAnalysis) -> [String] {
            var warnings: [String] = []
            if analysis.nonFiniteCount > 0 {
                warnings.append("\(grouped(analysis.nonFiniteCount)) entries are NaN or infinite")
            }
            if analysis.outputMin.min() < 0 || analysis.outputMax.max() > 1 {
                // By extension, once each: the image LUT layouts share .png.
                var seen = Set<String>()
                let clamping = LUTFormats.all.filter(\.clampsValues).compactMap { $0.extensions.first.map { "." + $0 } }
                    .filter { seen.insert($0).inserted }
                warnings.append("values outside 0...1: \(LUTFormats.list(clamping, joinedBy: "and")) output clamp them")
            }
            // Roughness speaks of an edited reference: a plain lattice, not a chain's bake (a log curve is
            // steep by design), and one whose values a reference image holds (0...1): a table beyond that
            // range is a conversion between spaces (a camera log to Rec.709), whose gamut mapping is
            // steep by design too.
            if analysis.roughness.suggestsSpatialEdit, look.roughness == nil, look.transform.plainLattice != nil,
               !analysis.hasValuesOutsideUnitRange {
                warnings.append(Diagnostics.roughnessWarning(analysis.roughness, path: path))
            }
            warnings += look.warnings.map { Diagnostics.message(for: $0, path: path) }
            return warnings
        }

        /// 35937 as "35,937".
        static func grouped(_ value: Int) -> String {
            let digits = Array(String(value))
            var text = ""
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
                text.append(digit)
            }
            return text
        }
    }
}

private extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
