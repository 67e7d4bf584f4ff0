import ColorCubeCore

/// Core Image cube data: what `CIColorCube`'s `inputCubeData` takes.
///
/// size^3 entries of red, green, blue, alpha as Float32 little-endian, 16 bytes per entry, red
/// fastest, then green, then blue. Nothing else: no header, so the size follows from the length
/// (4,194,304 bytes for a 64-cube).
public struct RawCubeFormat: LUTFileFormat {
    public init() {}

    public var name: String { "raw" }
    /// 64: the largest cube Core Image takes.
    public var preferredSize: Int { 64 }
    public var displayName: String { "raw Core Image data (RGBA Float32)" }
    public var noun: String { "raw cube data" }
    public var extensions: [String] { ["bin", "raw"] }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        Look(cube: try Self.decode(BinaryFile.readAll(path: path), path: path), format: self)
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try Self.write(table, to: path, displayPath: displayPath)
    }

    /// Bytes per entry.
    public static let bytesPerEntry = 16

    /// Writes `table` to `path` (created or truncated); `displayPath` names it in errors.
    public static func write(_ table: some CubeTable, to path: String, displayPath: String? = nil) throws {
        let file = try OutputFile(path: path, displayPath: displayPath)
        var chunk = [UInt32](repeating: 0, count: 4 << 14)
        try table.forEachChunk(of: 1 << 14) { _, entries in
            for (i, e) in entries.enumerated() {
                chunk[4 * i] = e.x.bitPattern.littleEndian
                chunk[4 * i + 1] = e.y.bitPattern.littleEndian
                chunk[4 * i + 2] = e.z.bitPattern.littleEndian
                chunk[4 * i + 3] = e.w.bitPattern.littleEndian
            }
            try chunk.withUnsafeBytes { bytes in
                try file.write(UnsafeRawBufferPointer(rebasing: bytes[0..<(entries.count * bytesPerEntry)]))
            }
        }
        try file.close()
    }

    /// Decodes raw cube data; the size follows from the length.
    /// - Throws: `LUTFileError.wrongLength` when the byte count is not size^3 * 16 for a size in 2...256.
    static func decode(_ bytes: [UInt8], path: String) throws(LUTFileError) -> ColorCube {
        guard bytes.count % bytesPerEntry == 0, let size = ColorCube.size(entryCount: bytes.count / bytesPerEntry) else { throw .wrongLength(path: path, bytes: bytes.count) }
        var values = [Float](repeating: 0, count: bytes.count / 4)
        bytes.withUnsafeBytes { raw in
            for i in 0..<values.count {
                values[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
        }
        do {
            return try ColorCube(size: size, values: values)
        } catch {
            throw .wrongLength(path: path, bytes: bytes.count)
        }
    }
}
