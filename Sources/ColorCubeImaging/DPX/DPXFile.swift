#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// DPX (SMPTE 268) reading and writing in Swift, with code values preserved exactly.
///
/// Reading takes the first image element of a file in either byte order (`SDPX` big-endian,
/// `XPDS` little-endian), versions 1.0 and 2.0: RGB (descriptor 50), RGBA (51), ABGR (52) and
/// luma (6, expanded to RGB), at 8, 10, 12 or 16 bits, packed or filled (method A or B; see
/// `DPXRowLayout`), with the element's data offset and end-of-line padding honoured and the four
/// orientations that flip lines or pixels (1...3) turned upright. 8-bit files give 8-bit samples;
/// 10, 12 and 16-bit files give 16-bit samples, a code `c` of `n` bits widened to
/// `round(c * 65535 / (2^n - 1))`, which `SampleDepth.reduce` brings back to `c` exactly.
///
/// Refused by name: run-length encoded data, signed samples, floating-point samples, 1-bit
/// samples, colour-difference (YCbCr) and other descriptors, files with more than one image
/// element, and transposed orientations (4...7).
///
/// DPX files carry no ICC profile: the colour tag is always `.unspecified`; the transfer
/// characteristic becomes `metadata.colorSpaceID` (see `DPXMetadata.colorSpaceID(transfer:)`).
public enum DPXFile {
    /// What to tell the user to do with a DPX file colorcube does not read.
    static let conversionAdvice = "convert it to an uncompressed RGB DPX or a TIFF first (ffmpeg -i in.dpx out.tif, "
        + "or oiiotool in.dpx -o out.tif)"

    /// Lines decoded or encoded per read or write call: about 1 MiB of file data.
    private static let bandBytes = 1 << 20

    // MARK: Reading

    /// Decodes the first image element of the DPX at `path`.
    ///
    /// `metadata.dpx` records the file's layout and headers, `metadata.colorSpaceID` the space its
    /// transfer characteristic names.
    /// - Throws: `ImageError.cannotOpen`, `.notAnImage`, `.unsupported` (naming what the file
    ///   holds), `.pixelLimit` (checked before any pixel buffer is allocated), `.corrupt` for a
    ///   header that contradicts itself or the file's length, `.outOfMemory`; each names `path`.
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError) -> RasterImage {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw .cannotOpen(path: path, reason: String(cString: strerror(EISDIR))) }
        let fileSize = Int(status.st_size)

        let head = readBytes(descriptor, at: 0, count: DPXHeader.size)
        guard let header = DPXHeader(reading: head) else { throw .notAnImage(path: path) }
        guard head.count >= DPXHeader.minimumSize else {
            throw .corrupt(path: path, reason: "the file ends at byte \(head.count), inside its \(DPXHeader.size)-byte header")
        }
        let element = try DPXImageElement(header: header, path: path)
        let width = Int(header.uint32(at: DPXHeader.Offset.width))
        let height = Int(header.uint32(at: DPXHeader.Offset.height))
        try options.check(width: width, height: height, path: path)

        let (samplesPerRow, rowOverflow) = width.multipliedReportingOverflow(by: element.components)
        guard !rowOverflow, let layout = DPXRowLayout(bitDepth: element.bitDepth, packing: element.packing,
                                                     isBigEndian: header.isBigEndian, samplesPerRow: samplesPerRow) else {
            throw .corrupt(path: path, reason: "a line of \(width) pixels is too long to address")
        }
        let stride = layout.rowBytes.addingReportingOverflow(element.endOfLinePadding)
        let lines = stride.partialValue.multipliedReportingOverflow(by: height - 1)
        let span = lines.partialValue.addingReportingOverflow(layout.rowBytes)
        let end = span.partialValue.addingReportingOverflow(element.dataOffset)
        guard !(stride.overflow || lines.overflow || span.overflow || end.overflow), end.partialValue <= fileSize else {
            let needed = end.overflow || span.overflow || lines.overflow || stride.overflow ? "more" : "\(end.partialValue)"
            throw .corrupt(path: path, reason: "its header declares \(width)x\(height) pixels of \(element.bitDepth) bits "
                           + "from byte \(element.dataOffset), which needs \(needed) bytes; the file has \(fileSize)")
        }

        let channels = element.descriptor == 51 || element.descriptor == 52 ? 4 : 3
        let (count, countOverflow) = (width * height).multipliedReportingOverflow(by: channels)
        guard !countOverflow else { throw .outOfMemory(path: path, bytes: Int.max) }
        let pixels: PixelStorage
        let decoder = DPXLinePlacer(layout: layout, element: element, width: width, height: height, channels: channels)
        if element.bitDepth == 8 {
            var samples: [UInt8] = try SampleBuffer.make(count: count, path: path)
            try decodeRows(descriptor, decoder: decoder, stride: stride.partialValue, height: height, path: path) { codes, line in
                decoder.place(codes, line: line, in: &samples, sample: { UInt8(truncatingIfNeeded: $0) })
            }
            pixels = .eight(samples)
        } else {
            var samples: [UInt16] = try SampleBuffer.make(count: count, path: path)
            let widened = wideningTable(bitDepth: element.bitDepth)
            try decodeRows(descriptor, decoder: decoder, stride: stride.partialValue, height: height, path: path) { codes, line in
                widened.withUnsafeBufferPointer { table in
                    decoder.place(codes, line: line, in: &samples, sample: { table[Int($0)] })
                }
            }
            pixels = .sixteen(samples)
        }

        var metadata = ImageMetadata()
        let headerBytes = Array(head.prefix(min(element.dataOffset, DPXHeader.size)))
        metadata.dpx = DPXMetadata(bitDepth: element.bitDepth, packing: element.packing, isBigEndian: header.isBigEndian,
                                   descriptor: element.descriptor, transfer: element.transfer,
                                   colorimetric: element.colorimetric,
                                   header: DPXHeader(reading: headerBytes)?.bytes ?? header.bytes,
                                   userData: userData(descriptor, header: header, dataOffset: element.dataOffset))
        metadata.colorSpaceID = DPXMetadata.colorSpaceID(transfer: element.transfer)
        return RasterImage(width: width, height: height, channels: channels, pixels: pixels, metadata: metadata)
    }

    /// For every code of `bitDepth` bits, the 16-bit sample `round(code * 65535 / (2^bitDepth - 1))`.
    /// No stable API.
    package static func wideningTable(bitDepth: Int) -> [UInt16] {
        let top = (1 << bitDepth) - 1
        return (0...top).map { code in UInt16((code * 65535 + top / 2) / top) }
    }

    /// Reads the image element's lines a band at a time and hands each line's codes, with its
    /// index in file order, to `place`.
    private static func decodeRows(_ descriptor: Int32, decoder: DPXLinePlacer, stride: Int, height: Int, path: String,
                                   place: (UnsafeBufferPointer<UInt16>, Int) -> Void) throws(ImageError) {
        let layout = decoder.layout
        let bandLines = max(1, min(height, bandBytes / max(stride, 1)))
        var band = [UInt8](repeating: 0, count: (bandLines - 1) * stride + layout.rowBytes)
        var codes = [UInt16](repeating: 0, count: layout.samplesPerRow)
        var line = 0
        while line < height {
            let lines = min(bandLines, height - line)
            let bytes = (lines - 1) * stride + layout.rowBytes
            let got = band.withUnsafeMutableBytes { buffer in
                readFully(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes]),
                          at: decoder.element.dataOffset + line * stride)
            }
            guard got == bytes else {
                throw .corrupt(path: path, reason: "the file ended while line \(line + 1) of \(height) was being read")
            }
            band.withUnsafeBytes { buffer in
                codes.withUnsafeMutableBufferPointer { codes in
                    for index in 0..<lines {
                        let start = index * stride
                        layout.decode(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + layout.rowBytes)]), into: codes)
                        place(UnsafeBufferPointer(codes), line + index)
                    }
                }
            }
            line += lines
        }
    }

    /// The user data section between the headers and the pixels, when the header declares one that
    /// lies there (at most 16 MiB); else empty.
    private static func userData(_ descriptor: Int32, header: DPXHeader, dataOffset: Int) -> [UInt8] {
        let size = header.uint32(at: DPXHeader.Offset.userDataSize)
        guard size != DPXHeader.undefined, size > 0, size <= 1 << 24, DPXHeader.size + Int(size) <= dataOffset else { return [] }
        let bytes = readBytes(descriptor, at: DPXHeader.size, count: Int(size))
        return bytes.count == Int(size) ? bytes : []
    }

    // MARK: Writing

    /// Encodes `image` to `path` (created or truncated) as a one-element DPX.
    ///
    /// An image read from a DPX (`metadata.dpx` set) is written as that file was: the same bit
    /// depth, packing, byte order, transfer and colorimetric codes, its headers and user data kept
    /// with sizes, offsets and the image element's fields brought up to date. Its descriptor is kept
    /// where the image still fits it (ABGR stays ABGR); a luma file's image is written as RGB, and
    /// the orientation is always left to right, top to bottom, since reading turned the picture
    /// upright. Samples of 16 bits are brought to 8, 10 or 12 with `SampleDepth.reduce`.
    ///
    /// Any other image becomes a big-endian version 2.0 file with the transfer and colorimetric
    /// codes 0 (user-defined): 16-bit pictures as 16-bit RGB or RGBA, 8-bit pictures as 10-bit
    /// filled method A, the DPX most tools expect, which holds every 8-bit code exactly.
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path`.
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil) throws(ImageError) {
        let shownPath = displayPath ?? path
        try image.checkWritable(holds: "DPX output holds RGB or RGBA", path: shownPath)
        guard image.width <= Int(UInt32.max), image.height <= Int(UInt32.max) else {
            throw .cannotWrite(path: shownPath, reason: "DPX holds at most \(UInt32.max) pixels a side")
        }
        let kept = image.metadata.dpx
        let bitDepth = kept?.bitDepth ?? (image.bitDepth == 8 ? 10 : 16)
        let packing = kept?.packing ?? .filledMethodA
        let isBigEndian = kept?.isBigEndian ?? true
        let elementDescriptor: UInt8 = image.channels == 3 ? 50 : kept?.descriptor == 52 ? 52 : 51
        guard let layout = DPXRowLayout(bitDepth: bitDepth, packing: packing, isBigEndian: isBigEndian,
                                        samplesPerRow: image.width * image.channels) else {
            throw .cannotWrite(path: shownPath, reason: "DPX has no \(bitDepth)-bit layout with packing \(packing.rawValue)")
        }
        let userData = kept?.userData ?? []
        let dataOffset = DPXHeader.size + userData.count
        let (pixelBytes, overflow) = layout.rowBytes.multipliedReportingOverflow(by: image.height)
        guard !overflow, dataOffset + pixelBytes <= Int(UInt32.max) else {
            throw .cannotWrite(path: shownPath, reason: "the image needs more than the 4 GiB a DPX file can address")
        }

        var header = kept.map { DPXHeader(keeping: $0.header, isBigEndian: isBigEndian) } ?? DPXHeader(isBigEndian: isBigEndian)
        if kept == nil {
            header.setElement(UInt32(0), DPXHeader.ElementField.lowCode)
            header.setElement(layout.maxCode, DPXHeader.ElementField.highCode)
        }
        header.setUInt32(UInt32(dataOffset), at: DPXHeader.Offset.imageDataOffset)
        header.setUInt32(UInt32(dataOffset + pixelBytes), at: DPXHeader.Offset.fileSize)
        header.setUInt32(UInt32(DPXHeader.genericSize), at: DPXHeader.Offset.genericSize)
        header.setUInt32(UInt32(DPXHeader.industrySize), at: DPXHeader.Offset.industrySize)
        header.setUInt32(UInt32(userData.count), at: DPXHeader.Offset.userDataSize)
        header.setUInt16(0, at: DPXHeader.Offset.orientation)
        header.setUInt16(1, at: DPXHeader.Offset.elementCount)
        header.setUInt32(UInt32(image.width), at: DPXHeader.Offset.width)
        header.setUInt32(UInt32(image.height), at: DPXHeader.Offset.height)
        header.setElement(UInt32(0), DPXHeader.ElementField.dataSign)
        header.setElement(elementDescriptor, DPXHeader.ElementField.descriptor)
        header.setElement(kept?.transfer ?? 0, DPXHeader.ElementField.transfer)
        header.setElement(kept?.colorimetric ?? 0, DPXHeader.ElementField.colorimetric)
        header.setElement(UInt8(bitDepth), DPXHeader.ElementField.bitSize)
        header.setElement(UInt16(packing.rawValue), DPXHeader.ElementField.packing)
        header.setElement(UInt16(0), DPXHeader.ElementField.encoding)
        header.setElement(UInt32(dataOffset), DPXHeader.ElementField.dataOffset)
        header.setElement(UInt32(0), DPXHeader.ElementField.endOfLinePadding)
        header.setElement(UInt32(0), DPXHeader.ElementField.endOfImagePadding)
        header.clearOtherElements()

        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: shownPath, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try writeFully(descriptor, header.bytes + userData, at: 0, path: shownPath)
        let encoder = DPXLineEncoder(layout: layout, image: image, descriptor: elementDescriptor)
        let bandLines = max(1, min(image.height, bandBytes / layout.rowBytes))
        var band = [UInt8](repeating: 0, count: bandLines * layout.rowBytes)
        var line = 0
        while line < image.height {
            let lines = min(bandLines, image.height - line)
            band.withUnsafeMutableBytes { buffer in
                for index in 0..<lines {
                    let start = index * layout.rowBytes
                    encoder.encode(line: line + index, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + layout.rowBytes)]))
                }
            }
            try writeFully(descriptor, band[0..<(lines * layout.rowBytes)], at: dataOffset + line * layout.rowBytes, path: shownPath)
            line += lines
        }
    }

    // MARK: File access

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    private static func readBytes(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { readFully(descriptor, into: $0, at: offset) }
        return Array(bytes.prefix(got))
    }

    /// Fills `buffer` from `offset`, retrying short reads; the number of bytes read.
    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return done
    }

    /// Writes `bytes` at `offset`, retrying short writes.
    private static func writeFully(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, at offset: Int, path: String) throws(ImageError) {
        let failure: String? = bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = pwrite(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + done))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return String(cString: strerror(errno)) }
                done += written
            }
            return nil
        }
        if let failure { throw .cannotWrite(path: path, reason: failure) }
    }

    private static func writeFully(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws(ImageError) {
        try writeFully(descriptor, bytes[...], at: offset, path: path)
    }
}
