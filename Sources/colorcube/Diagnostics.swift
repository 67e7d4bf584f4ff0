import ArgumentParser
import ColorCubeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for the user on standard error, never standard output (which may carry frame data).
enum Diagnostics {
    static func note(_ text: String) {
        write("colorcube: \(text)\n")
    }

    static func warning(_ text: String) {
        write("colorcube: warning: \(text)\n")
    }

    static func error(_ text: String) {
        write("colorcube: error: \(text)\n")
    }

    static func write(_ text: String) {
        var text = text
        #if canImport(Glibc)
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
        #else
        text.withUTF8 { bytes in _ = Darwin.write(2, bytes.baseAddress, bytes.count) }
        #endif
    }
}

extension Diagnostics {
    /// `value` with `places` decimals, rounded half away from zero ("1.25"); "inf", "-inf" and
    /// "nan" for values that are not finite, and Swift's shortest form ("3.4028234663852886e+38")
    /// for values too large for the digits to fit an Int.
    static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let magnitude = (abs(value) * scale).rounded()
        guard magnitude < 1e18 else { return "\(value)" }
        let scaled = Int(magnitude)
        let digits = String(scaled)
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + padded }
        return sign + padded.dropLast(places) + "." + padded.suffix(places)
    }
}

extension Diagnostics {
    /// Runs a command's work; a library error becomes one "colorcube: error:" line and exit status 1.
    /// Argument parser errors and exit codes pass through.
    static func reportingFailures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let exit as ExitCode {
            throw exit
        } catch let error as ValidationError {
            throw error
        } catch {
            Diagnostics.error(message(for: error))
            throw ExitCode.failure
        }
    }

    /// The library's description of `error`, followed by what to type next when the error has a
    /// remedy (see `advice(for:)`).
    static func message(for error: any Error) -> String {
        let text = String(describing: error)
        guard let error = error as? any ColorCubeError, let remedy = error.remedy else { return text }
        return text + advice(for: remedy)
    }

    /// The message for a failure with the file `path`: a library error that names no file of its
    /// own gets `path` in front. Errors outside `ColorCubeError` (none in the library, once every
    /// module conforms) fall back to looking for the path in their text.
    static func message(for error: any Error, path: String) -> String {
        let text = message(for: error)
        if let error = error as? any ColorCubeError {
            return error.path == nil ? "\(path): \(text)" : text
        }
        return text.contains(path) ? text : "\(path): \(text)"
    }

    /// The command-line advice for a remedy, as it continues the library's sentence: the only
    /// place library errors meet colorcube's flags.
    static func advice(for remedy: ErrorRemedy) -> String {
        switch remedy {
        case .ignoreProfile:
            "; use --ignore-profile to keep its code values"
        case .resample(let largestSize?):
            "; pass --size \(largestSize) or smaller" + (largestSize >= 65 ? " (65 or 33 are usual)" : "")
        case .resample(nil):
            "; pass --size, e.g. --size 64"
        case .chooseSize(let foundSize):
            " Drop --expect-size or pass --expect-size \(foundSize)."
        case .premultiplyAlpha:
            ", or pass --alpha premultiply to keep the transparency premultiplied"
        case .rawFrames:
            "; to process raw video frames, pass --raw WxH --pixel-format FMT"
        case .checkFrameFormat:
            "; check --raw and --pixel-format against the producer's"
        case .raisePixelLimit:
            "; raise the limit with --max-pixels N (or \(PixelLimit.environmentVariable)=N)"
        case .lookComesFirst:
            " The look comes first: colorcube apply LOOK INPUT... -o OUTPUT"
        case .chooseVideoEncoder:
            "; name one with --video-codec (libx264, prores_ks, ffv1, ...)"
        case .chooseQualityEncoder:
            "; drop --crf, or choose one of those with --video-codec"
        }
    }

    /// The warning for a look read from a lossily compressed reference image.
    static func lossyReferenceWarning(path: String, format: String) -> String {
        "\(path) was saved as \(format), which compresses with loss: its compression noise becomes part of "
            + "the look; save the edited reference as PNG or TIFF for a clean one"
    }
}
