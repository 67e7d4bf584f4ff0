import ColorCubeConverter
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLooks
import Foundation

/// The photos and looks the studio was given, found once at start: the only files it reads.
///
/// Requests name a photo by its number and a look by its name in these lists, never by a path, so
/// nothing outside the given files and folders can be asked for.
public struct StudioCatalog: Sendable {
    /// A photo: its file and the name the page shows (its path under the folder it was found in).
    public struct Photo: Sendable, Equatable {
        public var path: String
        public var name: String
    }

    /// A look: its file, the name the page and requests use, and which group it came from.
    public struct LookEntry: Sendable, Equatable {
        public var path: String
        public var name: String
        /// "sample" for the built-in sample looks, else the looks folder's own name.
        public var group: String
    }

    public let photos: [Photo]
    public let looks: [LookEntry]
    /// The photo inputs as given (files and folders): what grading a folder reads.
    public let photoInputs: [String]
    /// The folders and files the looks were read from.
    public let lookInputs: [String]

    /// The most photos and looks listed: a page of thousands of tiles is of no use.
    public static let largestCount = 2000

    /// Walks `photoInputs` (image files and folders of them) and `lookFolders` (plus `samples`,
    /// the built-in looks, when given).
    /// - Throws: `StudioError.refusedFolder` for an input that does not exist.
    public init(photoInputs: [String], lookFolders: [String], samples: String?) throws(StudioError) {
        for input in photoInputs + lookFolders where !FileManager.default.fileExists(atPath: input) {
            throw .refusedFolder(path: input, reason: "no such file or folder")
        }
        self.photoInputs = photoInputs.map(Self.absolute)
        var photos: [Photo] = []
        for input in self.photoInputs {
            for relative in Self.files(under: input) {
                let path = relative.isEmpty ? input : input + "/" + relative
                guard ImageFormat(pathExtension: FilePath.pathExtension(path)) != nil else { continue }
                photos.append(Photo(path: path, name: relative.isEmpty ? FilePath.split(input).name : relative))
            }
        }
        self.photos = Array(photos.prefix(Self.largestCount))
        var looks: [LookEntry] = [], taken = Set<String>()
        let groups = lookFolders.map { (Self.absolute($0), FilePath.split(Self.absolute($0)).name) }
            + (samples.map { [(Self.absolute($0), "sample")] } ?? [])
        self.lookInputs = groups.map(\.0)
        for (folder, group) in groups {
            for relative in Self.files(under: folder) {
                let path = relative.isEmpty ? folder : folder + "/" + relative
                // Image files are looks only in a looks folder; the sample folder's PNGs repeat its cubes.
                guard let format = LUTFormats.all.forPath(path), !(group == "sample" && format.readsImages) else { continue }
                var name = relative.isEmpty ? FilePath.split(folder).name : relative
                if taken.contains(name) { name = group + "/" + name }
                guard taken.insert(name).inserted else { continue }
                looks.append(LookEntry(path: path, name: name, group: group))
            }
        }
        self.looks = Array(looks.prefix(Self.largestCount))
    }

    /// The photo numbered `text` (as the page sends it).
    /// - Throws: `StudioError.unknownPhoto` for anything but a listed number.
    public func photo(_ text: String?) throws(StudioError) -> Photo {
        guard let text, let index = Int(text), photos.indices.contains(index) else { throw .unknownPhoto(text ?? "(none)") }
        return photos[index]
    }

    /// The look named `name`.
    /// - Throws: `StudioError.unknownLook`.
    public func look(_ name: String) throws(StudioError) -> LookEntry {
        guard let look = looks.first(where: { $0.name == name }) else { throw .unknownLook(name) }
        return look
    }

    /// The sample looks of the checkout an executable at `executable` was built in: the first
    /// `LUTs` folder holding `.cube` files in the folders above it (`.build/release/` sits two
    /// below the checkout), else nil.
    public static func findSamples(near executable: String) -> String? {
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent("LUTs").path
            if let names = try? FileManager.default.contentsOfDirectory(atPath: candidate), names.contains(where: { $0.hasSuffix(".cube") }) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The files under `root`, as paths relative to it, sorted; [""] when `root` is a file.
    /// Hidden files and folders are passed over.
    static func files(under root: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [""] }
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// `path` made absolute against the working folder, without a trailing slash.
    static func absolute(_ path: String) -> String {
        var path = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
