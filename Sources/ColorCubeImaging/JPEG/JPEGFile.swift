import _CJPEG

/// JPEG reading and writing through libjpeg.
///
/// Reading decodes to 8-bit RGB (greyscale expands to RGB; CMYK is refused) with libjpeg's accurate
/// integer IDCT, and keeps what a copy of the file should carry: the ICC profile as the colour tag,
/// the other APPn and COM markers (EXIF, XMP, IPTC, comments) as metadata, and the chroma
/// subsampling. Pixels are never rotated: an EXIF orientation stays in the EXIF marker, which is
/// written back unchanged, so viewers turn the output as they turned the input.
public enum JPEGFile {
    /// Decodes the JPEG at `path` to a 3-channel 8-bit image.
    ///
    /// `colorSpace` is `.icc` when APP2 ICC_PROFILE markers form a complete profile (taken in
    /// sequence-number order), else `.unspecified`. `metadata.jpegMarkers` holds every APPn and COM
    /// marker in file order except the JFIF header, the ICC chunks and the Adobe marker, which
    /// describe this file's encoding; `metadata.jpegSubsampling` is nil for a greyscale file.
    /// - Throws: `ImageError.cannotOpen` when the file cannot be opened or is a JPEG colorcube does
    ///   not decode (CMYK, 12-bit); `.notAnImage` when it does not start like a JPEG; `.corrupt` when
    ///   the data is damaged or truncated (libjpeg's "premature end" warnings count as errors here,
    ///   never a grey fill). Each names `path`.
    /// - Parameter options: the pixel limit, checked against the header before any allocation, and
    ///   whether chroma is replicated over its blocks rather than interpolated.
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError) -> RasterImage {
        var info = ccjpeg_info()
        var message = MessageBuffer()
        var reader: OpaquePointer?
        defer { ccjpeg_reader_close(reader) }
        let opened = message.withPointer {
            ccjpeg_reader_open(path, &reader, &info, options.replicatesChroma ? 1 : 0, $0)
        }
        guard opened == CCJPEG_OK, let reader else {
            throw openError(status: opened, path: path, message: message.text)
        }
        let width = Int(info.width), height = Int(info.height)
        try options.check(width: width, height: height, path: path)
        let bands = RowBands(width: width, height: height, channels: 3, interlaced: false,
                             fileBytes: FileProbe.size(path: path))
        let samples: [UInt8] = try bands.read(path: path) { base, rows in
            let status = message.withPointer {
                ccjpeg_reader_read_rows(reader, base?.assumingMemoryBound(to: UInt8.self), UInt32(rows), $0)
            }
            return status == CCJPEG_OK ? nil : message.text
        }
        let finished = message.withPointer { ccjpeg_reader_finish(reader, $0) }
        guard finished == CCJPEG_OK else { throw .corrupt(path: path, reason: message.text) }

        let markers = markers(of: info)
        var metadata = ImageMetadata()
        metadata.jpegMarkers = markers.filter { !$0.isWrittenByEncoder }
        metadata.exif = markers.first(where: \.isExif).map { Array($0.data.dropFirst(JPEGMarker.exifHeader.count)) }
        metadata.xmp = markers.first(where: \.isXMP).map { Array($0.data.dropFirst(JPEGMarker.xmpHeader.count)) }
        metadata.isLossy = true
        if info.h_subsampling > 0, info.v_subsampling > 0 {
            metadata.jpegSubsampling = (horizontal: Int(info.h_subsampling), vertical: Int(info.v_subsampling))
        }
        let colorSpace: ColorSpaceTag = JPEGICCProfile.assemble(from: markers)
            .map { .icc(ICCProfileData(bytes: $0)) } ?? .unspecified
        return RasterImage(width: width, height: height, channels: 3, pixels: .eight(samples),
                           colorSpace: colorSpace, metadata: metadata)
    }

    /// Encodes `image` to `path` (created or truncated) as a JPEG.
    ///
    /// An alpha channel is dropped (JPEG has none) and 16-bit samples are rounded to 8 bits as
    /// `(v * 255 + 32767) / 65535`. The file carries `image.metadata.jpegMarkers` and the colour tag
    /// as `JPEGRowWriter` describes.
    /// - Parameters:
    ///   - displayPath: the name errors give (the final name when `path` is temporary).
    ///   - quality: libjpeg's quality scale, 1...100; values outside are clamped.
    ///   - subsampling: luma sampling factors relative to chroma (2x2 is 4:2:0, 2x1 is 4:2:2, 1x1 is
    ///     4:4:4); nil keeps `image.metadata.jpegSubsampling`, or 4:2:0 when the image has none.
    ///   - greyscale: writes the luma alone, a one-component greyscale JPEG.
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path`.
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil,
                             quality: Int = 92, subsampling: (horizontal: Int, vertical: Int)? = nil,
                             greyscale: Bool = false) throws(ImageError) {
        let shownPath = displayPath ?? path
        try image.checkWritable(holds: "JPEG holds RGB", path: shownPath)
        var metadata = image.metadata
        if let exif = metadata.exif, !metadata.jpegMarkers.contains(where: \.isExif) {
            metadata.jpegMarkers.insert(JPEGMarker(code: 0xE1, data: JPEGMarker.exifHeader + exif), at: 0)
        }
        if let xmp = metadata.xmp, xmp.count <= JPEGMarker.largestXMP, !metadata.jpegMarkers.contains(where: \.isXMP) {
            // After the EXIF marker, where cameras and editors put it.
            let position = metadata.jpegMarkers.firstIndex(where: \.isExif).map { $0 + 1 } ?? 0
            metadata.jpegMarkers.insert(JPEGMarker(code: 0xE1, data: JPEGMarker.xmpHeader + xmp), at: position)
        }
        let writer = try JPEGRowWriter(path: path, displayPath: displayPath, width: image.width,
                                       height: image.height, quality: quality, subsampling: subsampling,
                                       greyscale: greyscale, colorSpace: image.colorSpace, metadata: metadata)
        switch image.integerSamples {
        case .eight(let samples) where image.channels == 3:
            try write(rows: image.height, of: samples, to: writer)
        case .eight(let samples):
            try writeConverted(image, to: writer) { samples[$0] }
        case .sixteen(let samples):
            try writeConverted(image, to: writer) { SampleDepth.eightBit(samples[$0]) }
        }
        try writer.finish()
    }

    /// Rows converted to 8-bit RGB a band at a time; `sample` gives sample `index` as 8 bits.
    private static func writeConverted(_ image: RasterImage, to writer: JPEGRowWriter,
                                       sample: (Int) -> UInt8) throws(ImageError) {
        let bandRows = 64
        var band = [UInt8](repeating: 0, count: min(bandRows, image.height) * image.width * 3)
        var row = 0
        while row < image.height {
            let rows = min(bandRows, image.height - row)
            var target = 0
            var source = row * image.width * image.channels
            for _ in 0..<(rows * image.width) {
                band[target] = sample(source)
                band[target + 1] = sample(source + 1)
                band[target + 2] = sample(source + 2)
                target += 3
                source += image.channels
            }
            try write(rows: rows, of: band, to: writer)
            row += rows
        }
    }

    private static func write(rows: Int, of samples: [UInt8], to writer: JPEGRowWriter) throws(ImageError) {
        // withUnsafeBytes only rethrows `any Error`; a Result keeps the error's type across it.
        try samples.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try writer.write(rows: rows, from: bytes) }
        }.get()
    }

    private static func openError(status: Int32, path: String, message: String) -> ImageError {
        switch status {
        case CCJPEG_NOT_JPEG: .notAnImage(path: path)
        case CCJPEG_CANNOT_OPEN, CCJPEG_UNSUPPORTED: .cannotOpen(path: path, reason: message)
        default: .corrupt(path: path, reason: message)
        }
    }

    private static func markers(of info: ccjpeg_info) -> [JPEGMarker] {
        guard let list = info.markers else { return [] }
        return UnsafeBufferPointer(start: list, count: Int(info.marker_count)).map { marker in
            let data = marker.data.map { Array(UnsafeBufferPointer(start: $0, count: marker.size)) } ?? []
            return JPEGMarker(code: marker.code, data: data)
        }
    }
}
