import Foundation
import RunnectKit

/// The files an import takes from a folder: every regular file of a supported name below it, at
/// any depth, sorted, and what was passed over on the way.
///
/// A supported name ends in one of ``supportedExtensions``, gzipped or not (`run.gpx`,
/// `RUN.TCX.GZ`); hidden files count as any other. A FIFO, socket or device of a supported name
/// would block or never end, and is skipped; so is a symbolic link that leads nowhere. A link to a
/// file is taken; links to folders inside are not followed. The folder itself may be a symbolic
/// link (`runs -> real/Runs`, `runs/`, `runs/.`): the folder it leads to is walked, and the files
/// are named under ``folder`` as given.
///
/// ```swift
/// let walk = FolderWalk(folder: "runs")
/// for skipped in walk.skipped { print(skipped) }  // runs/pipe.gpx: not a regular file (…), skipped
/// let items = walk.files.map { ImportItem(path: $0) }
/// ```
public struct FolderWalk: Sendable, Equatable {
    /// File extensions an import reads, lowercased: GPX, TCX, FIT, and tapped points as JSON or
    /// GeoJSON. Each may be gzipped (`.gpx.gz`).
    public static let supportedExtensions: Set<String> = ["gpx", "tcx", "fit", "json", "geojson"]

    /// An entry of a supported name that the walk passed over.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        /// Why an entry was passed over.
        public enum Reason: Sendable, Hashable {
            /// A FIFO, socket or device: reading it could block or never end.
            case notRegularFile
            /// A symbolic link to nothing.
            case brokenLink
        }

        /// The entry, named under ``FolderWalk/folder`` as given.
        public var path: String
        /// Why it was passed over.
        public var reason: Reason

        /// An entry passed over.
        public init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// One line naming the entry and why (`runs/pipe.gpx: a link to nothing, skipped`).
        public var description: String {
            switch reason {
            case .notRegularFile: return "\(path): not a regular file (a FIFO, socket or device), skipped"
            case .brokenLink: return "\(path): a link to nothing, skipped"
            }
        }
    }

    /// The folder walked, as given.
    public let folder: String
    /// The supported regular files found below ``folder``, each named under it, sorted.
    public let files: [String]
    /// The entries of a supported name passed over, in the order the walk met them.
    public let skipped: [Skipped]

    /// Walks `folder`. A folder that cannot be read gives no files.
    public init(folder: String) {
        self.folder = folder
        let enumerator = FileManager.default.enumerator(atPath: Self.realFolder(folder))
        var found: [String] = []
        var skipped: [Skipped] = []
        while let relative = enumerator?.nextObject() as? String {
            guard Self.isSupported(relative) else { continue }
            let full = (folder as NSString).appendingPathComponent(relative)
            switch OutputFile.kind(of: full) {
            case .regular: found.append(full)
            case .special: skipped.append(Skipped(path: full, reason: .notRegularFile))
            case .missing: skipped.append(Skipped(path: full, reason: .brokenLink))
            case .folder: continue
            }
        }
        files = found.sorted()
        self.skipped = skipped
    }

    /// Whether a file name ends in a supported extension, gzipped or not (`run.tcx.gz`), in any
    /// case.
    public static func isSupported(_ name: String) -> Bool {
        var ext = (name as NSString).pathExtension.lowercased()
        if ext == "gz" { ext = ((name as NSString).deletingPathExtension as NSString).pathExtension.lowercased() }
        return supportedExtensions.contains(ext)
    }

    /// Where `folder` leads, links resolved (`realpath`); `folder` itself when that fails (the
    /// walk then finds what it finds).
    static func realFolder(_ folder: String) -> String {
        guard let resolved = realpath(folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
