/// The orientation tag of an EXIF block (a TIFF structure).
enum EXIFOrientation {
    static let littleEndianMark: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
    static let bigEndianMark: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
    static let tag = 0x0112

    /// `exif` with the first directory's orientation set to 1 (top-left), for pixels that have
    /// already been turned the way the file says. A block without an orientation tag, or one that
    /// is not a well-formed TIFF directory, is returned unchanged.
    static func upright(_ exif: [UInt8]) -> [UInt8] {
        guard exif.count >= 8 else { return exif }
        let little: Bool
        if exif.starts(with: littleEndianMark) {
            little = true
        } else if exif.starts(with: bigEndianMark) {
            little = false
        } else {
            return exif
        }
        func read(_ offset: Int, _ size: Int) -> Int {
            let bytes = exif[offset..<(offset + size)]
            return (little ? bytes.reversed() : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        let directory = read(4, 4)
        guard directory >= 8, directory <= exif.count - 2 else { return exif }
        let entries = read(directory, 2)
        var result = exif
        for entry in 0..<entries {
            let start = directory + 2 + entry * 12
            guard start + 12 <= exif.count else { break }
            // SHORT (type 3), count 1: the value sits in the first two bytes of the value field.
            guard read(start, 2) == tag, read(start + 2, 2) == 3, read(start + 4, 4) == 1 else { continue }
            result[start + 8] = little ? 1 : 0
            result[start + 9] = little ? 0 : 1
            break
        }
        return result
    }
}
