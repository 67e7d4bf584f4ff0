#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Says in words why a finished temporary file could not take its destination's name, for
/// `FileError.cannotRename`: what happened and what to do, rather than the bare system message.
enum RenameFailure {
    /// The reason for the `rename(temporary, destination)` that failed with `code` (an errno value).
    /// Codes without a better explanation keep the system's message.
    static func reason(_ code: Int32, temporary: String, destination: String) -> String {
        let (folder, name) = FilePath.split(destination)
        let place = folder.isEmpty ? "the current folder" : folder
        switch code {
        case ENOENT:
            if !folder.isEmpty, !Folders.exists(folder) {
                return "the folder \(folder) was removed or renamed while the file was being written"
            }
            return "its temporary file \(FilePath.split(temporary).name) was removed by another program while "
                + "the file was being written; run again to write it"
        case EISDIR, ENOTEMPTY, EEXIST:
            return "a folder named \(name) appeared there while the file was being written; move it away or "
                + "choose another output name"
        case ENOTDIR:
            return "a part of \(place) is no longer a folder"
        case EACCES, EPERM:
            return "this user may not replace files in \(place) (the folder's permissions, or a shared "
                + "folder where \(name) belongs to another user)"
        case EROFS:
            return "\(place) is on a read-only file system"
        case ENOSPC:
            return "the disk holding \(place) is full"
        case EDQUOT:
            return "the disk quota for \(place) is used up"
        case EBUSY:
            return "\(destination) is in use by the system (a mount point)"
        case EXDEV:
            return "the temporary file and \(destination) ended up on different file systems"
        default:
            return String(cString: strerror(code))
        }
    }
}
