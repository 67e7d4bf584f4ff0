import _CJPEG

/// Writes a baseline JPEG a band of rows at a time, so that a large image never has to exist in
/// memory whole. Rows are 8-bit interleaved RGB; the file is YCbCr with optimised Huffman tables.
public final class JPEGRowWriter {
    /// The largest width or height libjpeg encodes.
    public static let maxDimension = 65500

    private var writer: OpaquePointer?
    private let displayPath: String
    private let rowBytes: Int
    private var message = MessageBuffer()

    /// Creates `path` and writes the headers, the markers of `metadata` and the colour tag.
    ///
    /// The file gets a JFIF header, then `metadata.jpegMarkers` in order (except JFIF, ICC and Adobe
    /// markers, which describe the encoding and are written afresh), then the ICC profile: the
    /// profile's bytes for `.icc`, Little CMS's sRGB profile for `.sRGB`, none for `.unspecified`.
    /// - Parameters:
    ///   - displayPath: the name errors give (the final name when `path` is temporary).
    ///   - quality: libjpeg's quality scale, 1...100; values outside are clamped.
    ///   - subsampling: luma sampling factors relative to chroma (2x2 is 4:2:0, 2x1 is 4:2:2, 1x1 is
    ///     4:4:4), each 1...4 with a product of at most 8; nil takes `metadata.jpegSubsampling`, or
    ///     4:2:0 when that is nil too.
    ///   - greyscale: writes the luma alone, one component, as editors save a black and white photo
    ///     (the subsampling is then unused).
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path`, for a size outside
    ///   1...65500, impossible subsampling, a marker that is not APPn or COM or holds over 65533
    ///   bytes, an ICC profile too large for 255 markers, or a failure to create the file.
    public init(path: String, displayPath: String? = nil, width: Int, height: Int, quality: Int = 92,
                subsampling: (horizontal: Int, vertical: Int)? = nil, greyscale: Bool = false,
                colorSpace: ColorSpaceTag = .unspecified,
                metadata: ImageMetadata = ImageMetadata()) throws(ImageError) {
        let shownPath = displayPath ?? path
        self.displayPath = shownPath
        self.rowBytes = width * 3
        guard (1...Self.maxDimension).contains(width), (1...Self.maxDimension).contains(height) else {
            throw .cannotWrite(path: shownPath, reason: "a JPEG is 1...\(Self.maxDimension) pixels on each side, "
                               + "not \(width)x\(height)")
        }
        let factors = subsampling ?? metadata.jpegSubsampling ?? (horizontal: 2, vertical: 2)
        guard (1...4).contains(factors.horizontal), (1...4).contains(factors.vertical),
              factors.horizontal * factors.vertical <= 8 else {
            throw .cannotWrite(path: shownPath, reason: "chroma subsampling \(factors.horizontal)x\(factors.vertical) "
                               + "is not possible in JPEG (factors 1...4, product at most 8; 2x2 is 4:2:0)")
        }
        let markers = try Self.markers(metadata: metadata, colorSpace: colorSpace, displayPath: shownPath)

        var options = ccjpeg_write_options()
        options.width = UInt32(width)
        options.height = UInt32(height)
        options.quality = Int32(min(max(quality, 1), 100))
        options.h_subsampling = Int32(factors.horizontal)
        options.v_subsampling = Int32(factors.vertical)
        options.greyscale = greyscale ? 1 : 0
        // All payloads in one buffer, pointed into for the call; the C side copies them out.
        let payload = markers.flatMap(\.data)
        var created: OpaquePointer?
        let opened = payload.withUnsafeBufferPointer { bytes in
            var offset = 0
            let converted = markers.map { marker in
                defer { offset += marker.data.count }
                return ccjpeg_marker(code: marker.code, size: marker.data.count,
                                     data: bytes.baseAddress.map { $0 + offset })
            }
            return converted.withUnsafeBufferPointer { list in
                options.markers = list.baseAddress
                options.marker_count = Int32(list.count)
                return message.withPointer { ccjpeg_writer_open(path, &options, &created, $0) }
            }
        }
        writer = created
        guard opened == CCJPEG_OK else {
            ccjpeg_writer_close(writer)
            writer = nil
            throw .cannotWrite(path: shownPath, reason: message.text)
        }
    }

    deinit {
        ccjpeg_writer_close(writer)
    }

    /// Encodes `rows` full rows of RGB from `bytes` (rows * width * 3 bytes).
    public func write(rows: Int, from bytes: UnsafeRawBufferPointer) throws(ImageError) {
        precondition(bytes.count >= rows * rowBytes, "row buffer too small")
        guard rows > 0, let base = bytes.baseAddress else { return }
        let status = message.withPointer {
            ccjpeg_writer_write_rows(writer, base.assumingMemoryBound(to: UInt8.self), UInt32(rows), $0)
        }
        guard status == CCJPEG_OK else { throw .cannotWrite(path: displayPath, reason: message.text) }
    }

    /// Writes the end of the file and closes it; every row must have been written.
    public func finish() throws(ImageError) {
        let status = message.withPointer { ccjpeg_writer_finish(writer, $0) }
        guard status == CCJPEG_OK else { throw .cannotWrite(path: displayPath, reason: message.text) }
    }

    /// The markers to write after the JFIF header: the carried ones, then the ICC profile's.
    private static func markers(metadata: ImageMetadata, colorSpace: ColorSpaceTag,
                                displayPath: String) throws(ImageError) -> [JPEGMarker] {
        var markers: [JPEGMarker] = []
        for marker in metadata.jpegMarkers where !marker.isWrittenByEncoder {
            guard marker.isCarriable else {
                let code = String(marker.code, radix: 16, uppercase: true)
                throw .cannotWrite(path: displayPath, reason: "marker 0x\(code) is neither APPn nor COM")
            }
            guard marker.data.count <= 65533 else {
                throw .cannotWrite(path: displayPath, reason: "a marker of \(marker.data.count) bytes does not fit "
                                   + "in JPEG (at most 65533)")
            }
            markers.append(marker)
        }
        let profile: [UInt8]
        switch colorSpace {
        case .unspecified: profile = []
        case .sRGB: profile = ICCProfiles.sRGB
        case .icc(let data): profile = data.bytes
        }
        guard let chunks = JPEGICCProfile.markers(for: profile) else {
            throw .cannotWrite(path: displayPath, reason: "the ICC profile of \(profile.count) bytes does not fit "
                               + "in JPEG (at most 255 markers of \(JPEGICCProfile.chunkCapacity) bytes)")
        }
        return markers + chunks
    }
}
