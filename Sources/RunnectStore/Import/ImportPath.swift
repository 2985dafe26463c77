import Foundation

/// What an import takes from one path a runner names: a file, a Strava export, or the supported
/// files of a folder.
///
/// A path that is a file (a FIFO or a device too: the runner named it) is read as it is, and so
/// is `-`, standard input. A folder holding `activities.csv` is a Strava bulk export
/// (``StravaExport``). Any other folder is walked for the files an import reads
/// (``FolderWalk``). A symbolic link is followed to what it leads to.
///
/// ```swift
/// var items: [ImportItem] = []
/// for path in ["run.gpx", "export_12345", "runs"] {
///     let found = try ImportPath(path)
///     for skipped in found.skipped { print(skipped) }
///     for source in found.sources {
///         switch source {
///         case .file(let file): items.append(ImportItem(path: file))
///         case .stravaExport(let export): items += export.importItems().items
///         }
///     }
/// }
/// ```
public struct ImportPath: Sendable {
    /// One thing to import.
    public enum Source: Sendable {
        /// A file to read (`-`: standard input).
        case file(String)
        /// A Strava bulk export, its `activities.csv` read.
        case stravaExport(StravaExport)
    }

    /// The path as given.
    public let path: String
    /// What to import from it, in order: the path itself, its export, or the files of its walk.
    public let sources: [Source]
    /// The entries a folder walk passed over (``FolderWalk/skipped``), in the order met; empty for
    /// a file or an export.
    public let skipped: [FolderWalk.Skipped]

    /// Looks at `path`: reads `activities.csv` when it is a Strava export, walks it when it is
    /// another folder.
    /// - Throws: ``ImportPathError/notFound(path:)`` when nothing is there; a ``StravaExportError``
    ///   when the folder is an export (it holds `activities.csv`, ``StravaExport/isExport(folder:)``)
    ///   whose table cannot be read or is none.
    public init(_ path: String) throws {
        self.path = path
        if path == "-" {
            sources = [.file(path)]
            skipped = []
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportPathError.notFound(path: path)
        }
        if !isDirectory.boolValue {
            sources = [.file(path)]
            skipped = []
        } else if StravaExport.isExport(folder: path) {
            sources = [.stravaExport(try StravaExport(folder: path))]
            skipped = []
        } else {
            let walk = FolderWalk(folder: path)
            sources = walk.files.map(Source.file)
            skipped = walk.skipped
        }
    }
}

/// Why a path named for an import gives nothing to import.
public enum ImportPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is at the path (a symbolic link to nothing included).
    case notFound(path: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or folder"
        }
    }
}
