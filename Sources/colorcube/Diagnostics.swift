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
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}

extension Diagnostics {
    /// `value` with `places` decimals, rounded half away from zero ("1.25").
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
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
            Diagnostics.error(String(describing: error) + advice(for: error))
            throw ExitCode.failure
        }
    }

    /// The message for a failure with one file; errors that do not name a file get its path.
    static func message(for error: any Error, path: String) -> String {
        let text = String(describing: error) + advice(for: error)
        return text.contains(path) ? text : "\(path): \(text)"
    }

    /// "; " and what to type about a library error's remedy, or "" when it has none.
    static func advice(for error: any Error) -> String {
        guard let error = error as? any ColorCubeError, let remedy = error.remedy else { return "" }
        return "; " + advice(for: remedy)
    }

    static func advice(for remedy: ErrorRemedy) -> String {
        switch remedy {
        case .ignoreProfile: "pass --ignore-profile to keep the code values as stored"
        case .resample: "pass --resample N to resample the cube"
        case .chooseSize: "choose another size with --size"
        case .premultiplyAlpha: "pass --alpha premultiply to premultiply the transparency"
        case .rawFrames: "read it as raw frames with --raw WxH --pixel-format FMT"
        case .raisePixelLimit: "raise the limit with --max-pixels N (or \(PixelLimit.environmentVariable)=N)"
        case .developRaw: "develop the camera raw file into a TIFF, PNG or JPEG first"
        }
    }
}
