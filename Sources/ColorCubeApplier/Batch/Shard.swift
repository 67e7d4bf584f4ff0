/// A deterministic share of a batch: shard `index` of `count` takes the files whose relative path
/// hashes to `index` modulo `count`. The hash (64-bit FNV-1a of the UTF-8 path) does not depend on
/// the machine, the order of the walk or the other files, so `count` workers given indices
/// 0..<count cover every file exactly once.
public struct Shard: Sendable, Equatable {
    /// 0-based, below `count` (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX).
    public let index: Int
    public let count: Int

    /// - Returns: nil unless 0 <= index < count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses "K/N", e.g. "3/8".
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// True when the file at `relativePath` belongs to this shard.
    public func contains(_ relativePath: String) -> Bool {
        Int(Self.hash(relativePath) % UInt64(count)) == index
    }

    /// 64-bit FNV-1a.
    public static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
