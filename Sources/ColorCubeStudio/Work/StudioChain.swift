import ColorCubeConverter
import ColorCubeCore
import ColorCubeLooks
import Foundation

/// A chain of looks as the page holds it: nodes, each a look at a strength, optionally in a look
/// space (for a camera LUT made for log footage). It becomes the LOOK text the command line takes
/// (`LookSpec`), which is then read exactly as `colorcube apply` reads it.
public struct StudioChain: Sendable, Equatable, Codable {
    /// One node of the chain.
    public struct Node: Sendable, Equatable, Codable {
        /// The look's name in the catalogue.
        public var look: String
        /// 0...1; 1 when left out.
        public var strength: Double?
        /// The colour space the look expects (a camera LUT's log space), by ID; nil for none.
        public var space: String?
        /// The colour space the look gives, when not `space` (a log-to-Rec.709 LUT's Rec.709).
        public var outputSpace: String?

        public init(look: String, strength: Double? = nil, space: String? = nil, outputSpace: String? = nil) {
            self.look = look
            self.strength = strength
            self.space = space
            self.outputSpace = outputSpace
        }
    }

    public var nodes: [Node]

    public init(nodes: [Node]) {
        self.nodes = nodes
    }

    /// The most nodes a chain takes.
    public static let largestCount = 32

    /// The space photos are in once their profile is converted: where a node in a look space
    /// converts from and back to.
    public static let photoSpace = "srgb_rec709_scene"

    /// The chain the page sent as JSON (`[{"look": "film.cube", "strength": 0.6}]`); empty for nil.
    /// - Throws: `StudioError.badRequest` for text that is not such a list.
    public init(json text: String?) throws(StudioError) {
        guard let text, !text.isEmpty else {
            self.init(nodes: [])
            return
        }
        guard let nodes = try? JSONDecoder().decode([Node].self, from: Data(text.utf8)) else {
            throw .badRequest("the chain is a JSON list of nodes, each {\"look\": NAME, \"strength\": 0...1}")
        }
        guard nodes.count <= Self.largestCount else {
            throw .badRequest("a chain of \(nodes.count) nodes is refused: the studio takes at most \(Self.largestCount)")
        }
        for node in nodes {
            if let strength = node.strength, !(0...1).contains(strength) {
                throw .badRequest("\(node.look.prefix(80)): a strength is between 0 and 1, not \(strength)")
            }
        }
        self.init(nodes: nodes)
    }

    /// The LOOK text of the chain (`/looks/film.cube@0.6+/looks/grade.cc`), each look by its path
    /// in `catalog`; nil for an empty chain.
    /// - Throws: `StudioError.unknownLook`; `.badRequest` for a look whose file name holds a `+`
    ///   or `@` in a chain, or a space name holding a `,` or `+`.
    public func spec(in catalog: StudioCatalog) throws(StudioError) -> String? {
        guard !nodes.isEmpty else { return nil }
        var steps: [String] = []
        for node in nodes {
            let path = try catalog.look(node.look).path
            if nodes.count > 1 || node.strength.map({ $0 < 1 }) == true || node.space != nil,
               path.contains(LookSpec.separator) || path.contains(LookSpec.strengthMark) {
                throw .badRequest("\(path): a file whose name holds + or @ can only be used alone at full strength "
                    + "(the LOOK syntax joins steps with + and gives strengths with @); rename it to chain it")
            }
            let step = LookSpec.text(path: path, strength: node.strength ?? 1)
            guard let space = node.space, !space.isEmpty else {
                steps.append(step)
                continue
            }
            let output = node.outputSpace.flatMap { $0.isEmpty ? nil : $0 } ?? space
            for name in [space, output] where name.contains(",") || name.contains("+") || name.contains("@") {
                throw .badRequest("\(name.prefix(80)) is not a colour space name")
            }
            steps += [LookSpec.conversionPrefix + Self.photoSpace + "," + space, step,
                      LookSpec.conversionPrefix + output + "," + Self.photoSpace]
        }
        return steps.joined(separator: String(LookSpec.separator))
    }

    /// The command line that grades `photo` as the page shows it: `colorcube apply 'LOOK' 'PHOTO' -o OUTPUT`.
    public static func command(spec: String, photo: String, output: String) -> String {
        ["colorcube", "apply", spec, photo, "-o", output].map(shellWord).joined(separator: " ")
    }

    /// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else
    /// in single quotes (a quote inside written '\'').
    public static func shellWord(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,+@%=")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
