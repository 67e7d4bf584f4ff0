#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// EXIF between a TIFF file and `ImageMetadata.exif`.
///
/// A TIFF keeps EXIF as directories its main directory points to (tags 34665 and 34853); other
/// formats keep a standalone TIFF structure whose first directory holds the picture's main tags
/// (Make, Model, Orientation ...) and those pointers. Reading builds that structure from the file's
/// directories; writing sets the main tags through libtiff and appends the EXIF and GPS
/// directories after libtiff has closed the file, pointing the placeholder tags at them.
enum TIFFExifBlock {
    /// What a TIFF writer takes from an EXIF block.
    struct Contents {
        /// Main-directory text tags (Make, Model, ...) and their values.
        var textTags: [(tag: UInt16, value: String)] = []
        var orientation: Int?
        /// The EXIF and GPS directories, by pointer tag, values in the host's byte order.
        var directories: [(tag: UInt16, entries: [TIFFDirectoryCopier.Entry])] = []
    }

    static var hostIsBigEndian: Bool { 1.bigEndian == 1 }

    /// The EXIF block of the classic TIFF at `path` (whose byte order is given), or nil when its
    /// main directory points to neither an EXIF nor a GPS directory that can be read.
    static func read(path: String, bigEndian: Bool) -> [UInt8]? {
        guard let probe = try? FileProbe(path: path) else { return nil }
        let copier = TIFFDirectoryCopier(read: { probe.read(at: $0, count: $1) },
                                         sourceBigEndian: bigEndian, targetBigEndian: false)
        let header = probe.read(at: 4, count: 4)
        guard header.count == 4 else { return nil }
        let first = Int(copier.u32(header, 0, bigEndian: bigEndian))
        let kept = Set(TIFFDirectoryCopier.textTags + [TIFFDirectoryCopier.orientationTag,
                                                       TIFFDirectoryCopier.exifTag, TIFFDirectoryCopier.gpsTag])
        guard let entries = copier.directory(at: first, keep: { kept.contains($0) }),
              entries.contains(where: { $0.directory != nil }) else { return nil }
        return copier.block(with: entries)
    }

    /// The parts of `block` a TIFF writer uses, or nil when it is not a TIFF structure.
    static func contents(of block: [UInt8]) -> Contents? {
        guard block.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (block[0], block[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        let copier = TIFFDirectoryCopier(read: { offset, count in
            guard offset >= 0, offset < block.count else { return [] }
            return Array(block[offset..<min(block.count, offset + count)])
        }, sourceBigEndian: bigEndian, targetBigEndian: hostIsBigEndian)
        guard copier.u16(block, 2, bigEndian: bigEndian) == 42,
              let entries = copier.directory(at: Int(copier.u32(block, 4, bigEndian: bigEndian))) else { return nil }
        var contents = Contents()
        for entry in entries {
            if let inner = entry.directory, entry.tag != TIFFDirectoryCopier.interoperabilityTag {
                contents.directories.append((entry.tag, inner))
            } else if entry.tag == TIFFDirectoryCopier.orientationTag, entry.type == 3, entry.value.count >= 2 {
                contents.orientation = Int(copier.u16(entry.value, 0, bigEndian: hostIsBigEndian))
            } else if entry.type == 2, TIFFDirectoryCopier.textTags.contains(entry.tag) {
                let text = String(decoding: entry.value.prefix { $0 != 0 }, as: UTF8.self)
                if !text.isEmpty { contents.textTags.append((entry.tag, text)) }
            }
        }
        return contents
    }

    /// Appends `directories` to the TIFF libtiff wrote at `path` and points the main directory's
    /// placeholder entries for their tags at them.
    /// - Throws: `ImageError.cannotWrite` naming `displayPath`.
    static func append(_ directories: [(tag: UInt16, entries: [TIFFDirectoryCopier.Entry])], toFileAt path: String,
                       displayPath: String) throws(ImageError) {
        guard !directories.isEmpty else { return }
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        func bytes(at offset: Int, count: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got == count ? buffer : []
        }
        let header = bytes(at: 0, count: 8)
        guard header.count == 8, header[0] == (hostIsBigEndian ? 0x4D : 0x49) else {
            throw .cannotWrite(path: displayPath, reason: "the written TIFF header is not in the host's byte order")
        }
        let copier = TIFFDirectoryCopier(read: bytes, sourceBigEndian: hostIsBigEndian, targetBigEndian: hostIsBigEndian)
        let first = Int(copier.u32(header, 4, bigEndian: hostIsBigEndian))
        let countBytes = bytes(at: first, count: 2)
        guard countBytes.count == 2 else { throw .cannotWrite(path: displayPath, reason: "the main directory cannot be read back") }
        let count = Int(copier.u16(countBytes, 0, bigEndian: hostIsBigEndian))
        let table = bytes(at: first + 2, count: count * 12)
        var end = Int(lseek(descriptor, 0, SEEK_END))
        for (tag, entries) in directories {
            guard let slot = (0..<count).first(where: { copier.u16(table, $0 * 12, bigEndian: hostIsBigEndian) == tag }) else {
                throw .cannotWrite(path: displayPath, reason: "libtiff wrote no entry for tag \(tag)")
            }
            end += end % 2
            let data = copier.serialise(entries, at: end)
            var pointer = [UInt8](repeating: 0, count: 4)
            copier.put32(&pointer, 0, UInt32(end))
            let written = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, data.count, off_t(end)) }
            let patched = pointer.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 4, off_t(first + 2 + slot * 12 + 8)) }
            guard written == data.count, patched == 4 else {
                throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno)))
            }
            end += data.count
        }
    }
}
