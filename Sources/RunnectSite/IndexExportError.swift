/// Why a discovery-index export stopped. The database is never changed by an export; files
/// already replaced in the output folder are whole (each is written atomically).
public enum IndexExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output path exists and is not a folder.
    case notAFolder(path: String)
    /// A file the export would write is already there and was not written by `runnect index`.
    case foreignFile(path: String)
    /// The folder's manifest of exported files cannot be read.
    case damagedManifest(path: String)
    /// A file or folder could not be written or removed.
    case cannotWrite(path: String, reason: String)
    /// A course's files could not be made.
    case cannotRender(id: Int64, reason: String)

    public var description: String {
        switch self {
        case .notAFolder(let path):
            return "\(path) exists and is not a folder; choose a folder for the index"
        case .foreignFile(let path):
            return "\(path) exists and was not written by runnect index; move it away or choose an empty folder "
                + "(nothing was written)"
        case .damagedManifest(let path):
            return "\(path) (the list of files runnect index wrote) is damaged; remove the folder's exported files "
                + "and that list, or choose an empty folder"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .cannotRender(let id, let reason):
            return "cannot export course #\(id): \(reason)"
        }
    }
}
