import ColorCubeCore
import Foundation

/// Before and after images matched up: two files, or two folders whose images pair by relative
/// path with the extension left out (`trip/IMG_1.png` with `trip/IMG_1.jpg`).
public struct ImagePairs: Sendable, Equatable {
    /// One before image and its after image.
    public struct Pair: Sendable, Equatable {
        public var before: String
        public var after: String
        /// The relative path without extension (the before file's name for two files).
        public var name: String
    }

    /// Pairs in the order of their relative paths.
    public var pairs: [Pair]
    /// Images in either folder with no partner in the other, sorted.
    public var unpaired: [String]
    /// Images left out because another image in the same folder has the same name but for the
    /// extension, so their partner is ambiguous, sorted.
    public var ambiguous: [String]

    /// Matches `before` with `after`. Folders are walked recursively; hidden files and folders
    /// and files that are not images (by content) are skipped.
    /// - Throws: `LearnError.mixedInputs` for a file and a folder, `.noPairs` when two folders
    ///   share no image.
    public static func find(before: String, after: String) throws(LearnError) -> ImagePairs {
        let beforeIsFolder = Folders.exists(before), afterIsFolder = Folders.exists(after)
        switch (beforeIsFolder, afterIsFolder) {
        case (false, false):
            return ImagePairs(pairs: [Pair(before: before, after: after, name: FilePath.split(before).name)],
                              unpaired: [], ambiguous: [])
        case (true, false):
            throw .mixedInputs(file: after, folder: before)
        case (false, true):
            throw .mixedInputs(file: before, folder: after)
        case (true, true):
            break
        }
        var ambiguous: [String] = []
        let beforeImages = images(in: before, ambiguous: &ambiguous)
        let afterImages = images(in: after, ambiguous: &ambiguous)
        var pairs: [Pair] = []
        var unpaired: [String] = []
        for (key, path) in beforeImages.sorted(by: { $0.key < $1.key }) {
            if let partner = afterImages[key] {
                pairs.append(Pair(before: path, after: partner, name: key))
            } else {
                unpaired.append(path)
            }
        }
        unpaired += afterImages.filter { beforeImages[$0.key] == nil }.map(\.value)
        guard !pairs.isEmpty else { throw .noPairs(before: before, after: after) }
        return ImagePairs(pairs: pairs, unpaired: unpaired.sorted(), ambiguous: ambiguous.sorted())
    }

    /// Images below `root` by relative path without extension; names that repeat go to `ambiguous`.
    private static func images(in root: String, ambiguous: inout [String]) -> [String: String] {
        var byKey: [String: [String]] = [:]
        for relative in walk(root) {
            let path = join(root, relative)
            guard PairImageReader.isImage(path) else { continue }
            let (folder, name) = FilePath.split(relative)
            let stem = FilePath.stem(name)
            byKey[folder.isEmpty ? stem : join(folder, stem), default: []].append(path)
        }
        var result: [String: String] = [:]
        for (key, paths) in byKey {
            if paths.count == 1 { result[key] = paths[0] } else { ambiguous += paths }
        }
        return result
    }

    /// Relative paths of the files below `root`, hidden entries skipped, sorted.
    private static func walk(_ root: String) -> [String] {
        var found: [String] = []
        func visit(_ relative: String) {
            let folder = relative.isEmpty ? root : join(root, relative)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                if Folders.exists(join(root, child)) { visit(child) } else { found.append(child) }
            }
        }
        visit("")
        return found
    }

    private static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }
}
