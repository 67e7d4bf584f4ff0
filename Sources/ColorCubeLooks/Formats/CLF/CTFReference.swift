import ColorCubeCore
import ColorCubeTransform

/// How a CTF `<Reference path="...">` finds, reads and inverts the file it names, by OpenColorIO
/// 2.6's rules where colorcube can follow them.
///
/// OpenColorIO resolves an absolute path as it is and a relative one against its config's search
/// paths, for a nested reference too (not against the folder of the file that holds it); the
/// `basePath` attribute is ignored. colorcube has no config: relative paths start from the folder
/// of the first file read, the search path a config kept beside its files would give. A file
/// that is being read (the chain of references leading here, compared after "." and ".." are
/// resolved and without regard to case, as OpenColorIO compares them) may not be referred to
/// again: that is a cycle.
enum CTFReference {
    /// Where relative paths start, the files being read (outermost first) and the operations
    /// the references have brought in so far.
    struct Context: Sendable {
        var folder: String
        var chain: [String]
        let brought: OperationCount
    }

    /// The operations references have brought into one file, shared by every file it reads. A
    /// file of a thousand references to a file of a thousand references would otherwise make a
    /// million operations from a few kilobytes.
    final class OperationCount: @unchecked Sendable {
        /// Read and written by the one thread reading the file.
        var total = 0
    }

    /// The context of the references being read, nil outside any.
    @TaskLocal static var current: Context?

    /// The context for references in the file at `path`: the one it is read in, or, for the first
    /// file, its folder and itself.
    static func context(reading path: String) -> Context {
        if let current { return current }
        return Context(folder: folder(of: path), chain: [normalized(path)], brought: OperationCount())
    }

    /// `target` made absolute against `folder` (unless it is absolute) and normalized.
    static func resolve(_ target: String, in folder: String) -> String {
        normalized(target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target)
    }

    static func isSame(_ a: String, _ b: String) -> Bool {
        a.lowercased() == b.lowercased()
    }

    /// The look of the file at `path` (any format colorcube reads), read with `path` added to
    /// the chain of files being read.
    static func read(_ path: String, context: Context) throws(LUTFileError) -> Look {
        var inner = context
        inner.chain.append(path)
        do {
            return try $current.withValue(inner) { try LUTReader.read(path: path, formats: LUTFormats.portable) }
        } catch let error as LUTFileError {
            throw error
        } catch {
            throw .undecodable(path: path, reason: "\(error)")
        }
    }

    /// `look` inverted as OpenColorIO inverts a referenced file: a 3D LUT as
    /// `TransformInverter.openColorIOInverse(of:)`, a 1D LUT over 0...1 as an InverseLUT1D
    /// (`CTFInverseTable`) baked over half floats when it comes from a CLF or CTF (whose tables are
    /// mostly 32f; one stating an integer depth gets its codes in OpenColorIO, a small difference)
    /// and over 4096 codes from a format that states no depth, every other operation as `inverse()`.
    static func openColorIOInverse(of look: Look) throws(TransformError) -> Transform {
        let transform = look.transform
        let codes: Int? = ["clf", "ctf"].contains(look.format.name) ? nil : 4096
        var result: [any TransformOp] = []
        for operation in transform.operations.reversed() {
            if let lattice = operation as? LUT3DOp {
                result.append(try TransformInverter.openColorIOInverse(of: lattice))
            } else if let table = operation as? LUT1DOp,
                      table.curves.allSatisfy({ $0.inputs == .uniform(0...1) }) {
                let tables = table.curves.map { CTFInverseTable(entries: $0.outputs, halfDomain: false) }
                result.append(try LUT1DOp(curves: CTFInverseTable.bakedCurves(tables, codes: codes)))
            } else {
                result.append(contentsOf: try operation.inverse())
            }
        }
        return Transform(result)
    }

    /// The folder of `path` ("" for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` without "." components, empty components and the ".." that cancel a name.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }
}
