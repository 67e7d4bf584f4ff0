extension PNGChunk {
    /// The keyword of the iTXt chunk that holds a PNG's XMP packet.
    static let xmpKeyword: [UInt8] = Array("XML:com.adobe.xmp".utf8)

    /// The XMP packet this chunk holds: an iTXt chunk with the XMP keyword, uncompressed
    /// (keyword, 0, compression flag 0, method, language tag, 0, translated keyword, 0, text).
    /// Nil for any other chunk, or a compressed one (XMP's own rules ask for none).
    var xmpPacket: [UInt8]? {
        guard name == "iTXt", data.starts(with: Self.xmpKeyword + [0]) else { return nil }
        var index = Self.xmpKeyword.count + 1
        guard index + 2 <= data.count, data[index] == 0 else { return nil }
        index += 2
        for _ in 0..<2 {  // the language tag and the translated keyword, each ended by a zero
            guard let end = data[index...].firstIndex(of: 0) else { return nil }
            index = end + 1
        }
        return Array(data[index...])
    }

    /// An uncompressed iTXt chunk holding `xmp`, placed before the image data.
    init(xmp: [UInt8]) {
        self.init(name: "iTXt", location: 0x02, data: Self.xmpKeyword + [0, 0, 0, 0, 0] + xmp)
    }
}
