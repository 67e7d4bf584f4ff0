/// What a DPX file stored besides its pixels, kept so that a DPX output of a DPX input is written
/// as the input was: the same bit depth, packing, byte order, descriptor, transfer and colorimetric
/// codes, and the input's header fields (file name, creator, project, film and TV information).
///
/// Held in `ImageMetadata.dpx`; an output in another format drops it.
public struct DPXMetadata: Sendable, Equatable {
    /// How samples of fewer than 16 bits lie in the file's 32-bit words (SMPTE 268 "packing").
    public enum Packing: Int, Sendable {
        /// Samples follow one another across word boundaries, no padding; the first sample takes a
        /// word's lowest bits. Each line starts on a new word.
        case packed = 0
        /// "Filled, method A": 10-bit samples three to a 32-bit word from the highest bits down,
        /// the two lowest bits unused; 12-bit samples one to 16 bits, in the 12 highest.
        case filledMethodA = 1
        /// "Filled, method B": as method A with the unused bits at the top instead (10-bit samples
        /// in bits 29...0; 12-bit samples in the 12 lowest of 16 bits).
        case filledMethodB = 2
    }

    /// Bits per sample in the file: 8, 10, 12 or 16.
    public var bitDepth: Int
    /// How samples lie in words; matters for 10 and 12 bits only.
    public var packing: Packing
    /// True for a big-endian file (magic `SDPX`), false for little-endian (`XPDS`).
    public var isBigEndian: Bool
    /// The image element's descriptor: 50 RGB, 51 RGBA, 52 ABGR, 6 luma.
    public var descriptor: UInt8
    /// The transfer characteristic code (header offset 801): 1 printing density, 2 linear,
    /// 3 logarithmic, 5 SMPTE 274M, 6 ITU-R BT.709, 7 and 8 BT.601 (625 and 525 lines), 0 user-defined.
    public var transfer: UInt8
    /// The colorimetric specification code (offset 802), on the same scale as `transfer`.
    public var colorimetric: UInt8
    /// The file's generic and industry headers, `DPXHeader.size` bytes in the file's byte order
    /// (a header the file cut short is completed with "undefined" fields).
    public var header: [UInt8]
    /// The user data section that followed the headers (empty when there was none).
    public var userData: [UInt8]

    /// A record of a DPX file's layout; `header` may be empty (or any bytes that are not a DPX
    /// header in this byte order), and a writer then makes a new one.
    public init(bitDepth: Int, packing: Packing, isBigEndian: Bool, descriptor: UInt8, transfer: UInt8,
                colorimetric: UInt8, header: [UInt8], userData: [UInt8] = []) {
        self.bitDepth = bitDepth
        self.packing = packing
        self.isBigEndian = isBigEndian
        self.descriptor = descriptor
        self.transfer = transfer
        self.colorimetric = colorimetric
        self.header = header
        self.userData = userData
    }

    /// The Color Interop ID of the space a transfer characteristic code names, or nil for codes
    /// that name none colorcube knows (user-defined, unspecified video, composite, depth).
    ///
    /// Printing density (1) and logarithmic (3) are Cineon log; linear (2) is linear light over
    /// Rec.709 primaries; SMPTE 274M (5), BT.709 (6) and BT.601 (7, 8) share the Rec.709 camera
    /// curve.
    public static func colorSpaceID(transfer: UInt8) -> String? {
        switch transfer {
        case 1, 3: "cineonlog_rec709_scene"
        case 2: "lin_rec709_scene"
        case 5, 6, 7, 8: "ocio:itu709_rec709_scene"
        default: nil
        }
    }
}
