import ColorCubeApplier
import Testing

@Suite struct ShardTests {
    @Test func fnv1aMatchesThePublishedValues() {
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.hash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func parsingTakesKOverN() {
        #expect(Shard(parsing: "3/8") == Shard(index: 3, count: 8))
        #expect(Shard(parsing: "0/1") == Shard(index: 0, count: 1))
        #expect(Shard(parsing: "3/8")?.index == 3)
        #expect(Shard(parsing: "3/8")?.count == 8)
        for bad in ["", "3", "8/8", "9/8", "-1/8", "0/0", "1/-2", "a/b", "1/2/3", "1/", "/2", " 1/2"] {
            #expect(Shard(parsing: bad) == nil, "\(bad)")
        }
        #expect(Shard(index: 2, count: 2) == nil)
        #expect(Shard(index: 0, count: 0) == nil)
    }

    @Test func aPathBelongsToTheShardItsHashNames() throws {
        // FNV-1a("a") = 0xaf63dc4c8601ec8c, which is 1 modulo 3 and 0 modulo 2.
        let hash = Shard.hash("a")
        #expect(hash % 3 == 1 && hash % 2 == 0)
        #expect(try #require(Shard(index: 1, count: 3)).contains("a"))
        #expect(try !#require(Shard(index: 2, count: 3)).contains("a"))
        #expect(try #require(Shard(index: 0, count: 2)).contains("a"))
        #expect(try #require(Shard(index: 0, count: 1)).contains("anything/at/all.jpg"))
    }

    @Test(arguments: [1, 2, 3, 4, 7, 16])
    func shardsPartitionAnyListOfPaths(count: Int) throws {
        let paths = (0..<200).map { "folder \($0 % 7)/photo-\($0).jpg" }
        let shards = try (0..<count).map { try #require(Shard(index: $0, count: count)) }
        for path in paths {
            #expect(shards.filter { $0.contains(path) }.count == 1, "\(path)")
        }
    }
}
