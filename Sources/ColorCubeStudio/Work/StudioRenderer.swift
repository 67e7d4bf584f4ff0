import ColorCubeApplier
import ColorCubeConverter
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeLooks
import Foundation

/// Makes the studio's pictures and exports with the library the command line uses.
///
/// A photo is decoded once, brought to sRGB (its profile converted, as `apply` does) and scaled
/// with `ImageScaler` to each width asked for; those scaled pictures are kept, so a change to the
/// chain costs only the look on a screen-sized picture and its PNG. Engines are kept per LOOK
/// text. A preview is therefore exactly `colorcube apply LOOK` on the scaled picture (the page's
/// "before" image), which the tests check.
public final class StudioRenderer: Sendable {
    /// Where exports and pictures are written on their way to a response; removed by `close`.
    public let scratch: String
    private let limit: PixelLimit
    private let scaled = Locked<[String: RasterImage]>([:])
    private let decoded = Locked<(path: String, image: RasterImage)?>(nil)
    private let engines = Locked<[String: LUTEngine]>([:])
    private let looks = Locked<[String: Look]>([:])
    private let counter = Locked(0)

    /// Widths a picture may be asked at.
    public static let widths = 16...4096
    /// The most scaled pictures and engines kept.
    static let kept = 256

    /// - Throws: `StudioError.failed` when the scratch folder cannot be made.
    public init(limit: PixelLimit = .fromEnvironment()) throws(StudioError) {
        self.limit = limit
        let folder = NSTemporaryDirectory() + "/colorcube-studio-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failed("cannot make the scratch folder \(folder): \(error.localizedDescription)")
        }
        scratch = folder
    }

    /// Removes the scratch folder.
    public func close() {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// `photo` in sRGB, scaled to `width` pixels wide (at most its own width; the height in
    /// proportion), 8-bit RGB.
    /// - Throws: `StudioError.failed` with the reader's message.
    public func picture(_ photo: StudioCatalog.Photo, width: Int) throws(StudioError) -> RasterImage {
        let key = "\(width) \(photo.path)"
        if let image = scaled.withLock({ $0[key] }) { return image }
        do {
            var full: RasterImage
            if let kept = decoded.withLock({ $0 }), kept.path == photo.path {
                full = kept.image
            } else {
                full = try ImageApplier.read(photo.path, options: ImageReadOptions(limit: limit)).image
                try ColorConversion.convertToSRGB(&full, path: photo.path)
                full.colorSpace = .sRGB
                decoded.withLock { [full] in $0 = (photo.path, full) }
            }
            // Never enlarged: a photo narrower than the width asked for keeps its own.
            let width = min(width, full.width)
            let height = max(1, Int((Double(full.height) * Double(width) / Double(max(full.width, 1))).rounded()))
            var image = ImageScaler.scaled(full, width: width, height: height)
            image.colorSpace = .sRGB
            scaled.withLock { [image] in
                if $0.count >= Self.kept { $0.removeAll() }
                $0[key] = image
            }
            return image
        } catch {
            throw .failed(String(describing: error))
        }
    }

    /// The engine of the LOOK text `spec`, read as `colorcube apply` reads it.
    /// - Throws: `StudioError.failed` with the reader's message.
    public func engine(_ spec: String) throws(StudioError) -> LUTEngine {
        if let engine = engines.withLock({ $0[spec] }) { return engine }
        do {
            let look = try read(spec)
            let engine = try LUTEngine(transform: look.transform, interpolation: nil, strength: 1, colorMemory: .recent)
            engines.withLock {
                if $0.count >= Self.kept { $0.removeAll() }
                $0[spec] = engine
            }
            return engine
        } catch {
            throw .failed(String(describing: error))
        }
    }

    /// `photo` at `width` under `spec` (nil: as it is), as PNG bytes.
    public func png(_ photo: StudioCatalog.Photo, width: Int, spec: String?) throws(StudioError) -> Data {
        var image = try picture(photo, width: width)
        if let spec {
            let engine = try engine(spec)
            do {
                try ImageApplier(engine: engine).apply(to: &image, path: photo.path)
            } catch {
                throw .failed(String(describing: error))
            }
        }
        return try written("png") { path in try PNGFile.write(image, to: path, compressionLevel: 1) }
    }

    /// The chain `spec` written as `format` ("cube", "clf", "raw", "png", ...: `convert --format`'s
    /// names) at `size` (nil: as `convert` chooses), the bytes `colorcube convert 'spec' --size N`
    /// writes: the same writer, and the title `convert` gives (the stem of its input).
    public func export(_ spec: String, format name: String, size: Int?) throws(StudioError) -> Data {
        guard let format = LUTFormats.all.named(name), format.isWritable else {
            let names = LUTFormats.all.filter(\.isWritable).map(\.name)
            throw .badRequest("no export format \"\(name.prefix(20))\"; use " + LUTFormats.list(names, joinedBy: "or"))
        }
        if let size, !ColorCube.sizeRange.contains(size) {
            throw .badRequest("a cube of \(size) points per axis is refused; use 2 to 256")
        }
        let look: Look
        do {
            look = try read(spec)
        } catch {
            throw .failed(String(describing: error))
        }
        return try written(format.extensions.first ?? name) { path in
            try LUTWriter.write(look, format: format, to: path, title: FilePath.stem(spec), size: size)
        }
    }

    /// `spec` read as `LookSpec.read` reads it, each file read once while its size and date stay
    /// the same (a strength changed on the page reads nothing again).
    func read(_ spec: String) throws -> Look {
        let options = LUTReadOptions(pixelLimit: limit)
        return try LookSpec.read(spec, options: options) { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let key = "\(attributes?[.size] ?? 0) \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) \(path)"
            if let look = self.looks.withLock({ $0[key] }) { return look }
            let look = try LUTReader.read(path: path, options: options)
            self.looks.withLock {
                if $0.count >= Self.kept { $0.removeAll() }
                $0[key] = look
            }
            return look
        }
    }

    /// Runs `write` on a fresh path in the scratch folder and gives back what it wrote.
    private func written(_ pathExtension: String, _ write: (String) throws -> Void) throws(StudioError) -> Data {
        let number = counter.withLock { value in
            value += 1
            return value
        }
        let path = scratch + "/out-\(number).\(pathExtension)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try write(path)
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .failed(String(describing: error))
        }
    }
}
