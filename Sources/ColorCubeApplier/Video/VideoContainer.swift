import ColorCubeImaging

/// Video containers: recognised by content for folder walks, chosen by extension for outputs.
///
/// Recognition looks at the first bytes only, after the image codecs had their turn (a HEIC or
/// AVIF photo is ISO BMFF too, and is claimed by them first): ISO BMFF (`ftyp`, or a QuickTime
/// file starting with `moov`, `mdat`, `wide` or `free`), Matroska/WebM (EBML), AVI, MXF, MPEG
/// transport (0x47 every 188 bytes) and program streams, FLV, NUT and Ogg.
public enum VideoContainer {
    /// The muxer ffmpeg writes for an output extension (lower-cased), or nil when none fits.
    public static func muxer(forExtension pathExtension: String) -> String? {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": "mp4"
        case "mov", "qt": "mov"
        case "mkv": "matroska"
        case "webm": "webm"
        case "avi": "avi"
        case "mxf": "mxf"
        case "ts", "m2ts", "mts": "mpegts"
        case "mpg", "mpeg", "vob": "mpeg"
        case "flv": "flv"
        case "nut": "nut"
        case "ogv": "ogg"
        case "y4m": "yuv4mpegpipe"
        default: nil
        }
    }

    /// True when `pathExtension` names a video container colorcube writes.
    public static func isVideoExtension(_ pathExtension: String) -> Bool {
        muxer(forExtension: pathExtension) != nil
    }

    /// True when the file behind `probe` looks like a video container.
    public static func matches(_ probe: FileProbe) -> Bool {
        let head = probe.head
        guard head.count >= 12 else { return false }
        // Audio-only MPEG-4 files (iTunes' M4A, M4B, M4P) are ISO BMFF too.
        if probe.headHas(Array("ftypM4A ".utf8), at: 4) || probe.headHas(Array("ftypM4B ".utf8), at: 4)
            || probe.headHas(Array("ftypM4P ".utf8), at: 4) { return false }
        for box in ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"] where probe.headHas(Array(box.utf8), at: 4) {
            return true
        }
        if probe.headHas([0x1A, 0x45, 0xDF, 0xA3]) { return true }  // EBML: Matroska, WebM
        if probe.headHas(Array("RIFF".utf8)), probe.headHas(Array("AVI ".utf8), at: 8) { return true }
        if probe.headHas([0x06, 0x0E, 0x2B, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0D, 0x01, 0x02]) { return true }  // MXF
        if probe.headHas([0x00, 0x00, 0x01, 0xBA]) { return true }  // MPEG program stream
        if probe.headHas(Array("FLV".utf8)) { return true }
        if probe.headHas(Array("nut/multimedia container".utf8)) { return true }
        if probe.headHas(Array("OggS".utf8)) { return false }  // usually audio; named files still go through ffprobe
        if head[0] == 0x47 {
            // Transport stream: sync bytes 188 bytes apart (192 for M2TS is handled below).
            let second = probe.read(at: 188, count: 1), third = probe.read(at: 376, count: 1)
            if second == [0x47], third == [0x47] { return true }
        }
        if head.count > 4, head[4] == 0x47 {
            let second = probe.read(at: 196, count: 1), third = probe.read(at: 388, count: 1)
            if second == [0x47], third == [0x47] { return true }  // M2TS: 4-byte timecode before each packet
        }
        return false
    }

    /// True when the file at `path` looks like a video container (and is not an image).
    public static func matches(path: String) -> Bool {
        guard let probe = try? FileProbe(path: path) else { return false }
        return ImageCodecs.sniff(probe: probe) == nil && matches(probe)
    }
}
