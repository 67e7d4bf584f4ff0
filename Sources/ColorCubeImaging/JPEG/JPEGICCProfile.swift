/// ICC profiles in JPEG files, stored as the ICC specification (ICC.1, annex B.4) lays them out:
/// one or more APP2 markers, each "ICC_PROFILE\0", a 1-based sequence number, the chunk count, then
/// up to 65519 bytes of the profile (the 65533-byte marker limit less that 14-byte header).
enum JPEGICCProfile {
    /// The APP2 marker code.
    static let markerCode: UInt8 = 0xE2
    /// "ICC_PROFILE" and its terminating zero.
    static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    /// Profile bytes per marker.
    static let chunkCapacity = 65519
    /// A sequence number is one byte, so a profile spans at most 255 markers.
    static let maxChunks = 255

    /// True for an APP2 marker that carries a piece of an ICC profile.
    static func isChunk(_ marker: JPEGMarker) -> Bool {
        marker.code == markerCode && marker.data.starts(with: signature)
    }

    /// The profile reassembled from the ICC chunks among `markers`, taken in sequence-number order
    /// whatever their order in the file; nil when there are none, or when they do not form one
    /// profile (a chunk missing or repeated, counts that disagree, a header cut short).
    static func assemble(from markers: [JPEGMarker]) -> [UInt8]? {
        let chunks = markers.filter(isChunk)
        guard let first = chunks.first, first.data.count >= signature.count + 2 else { return nil }
        let count = Int(first.data[signature.count + 1])
        guard count == chunks.count else { return nil }
        var ordered = [[UInt8]?](repeating: nil, count: count)
        for chunk in chunks {
            guard chunk.data.count >= signature.count + 2 else { return nil }
            let sequence = Int(chunk.data[signature.count])
            guard Int(chunk.data[signature.count + 1]) == count, (1...count).contains(sequence),
                  ordered[sequence - 1] == nil else { return nil }
            ordered[sequence - 1] = Array(chunk.data[(signature.count + 2)...])
        }
        var profile: [UInt8] = []
        for piece in ordered {
            guard let piece else { return nil }
            profile.append(contentsOf: piece)
        }
        return profile
    }

    /// The APP2 markers that carry `profile`: none for an empty profile, nil when it needs more
    /// than 255 markers (a profile over 16,707,345 bytes).
    static func markers(for profile: [UInt8]) -> [JPEGMarker]? {
        guard !profile.isEmpty else { return [] }
        let count = (profile.count + chunkCapacity - 1) / chunkCapacity
        guard count <= maxChunks else { return nil }
        return (0..<count).map { index in
            let start = index * chunkCapacity
            let end = min(start + chunkCapacity, profile.count)
            let data = signature + [UInt8(index + 1), UInt8(count)] + profile[start..<end]
            return JPEGMarker(code: markerCode, data: data)
        }
    }
}
