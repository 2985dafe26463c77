/// Whether opening a SQLite store may make its file (``CourseStore/init(path:user:creating:durability:)``).
///
/// A path someone typed is checked, not trusted: reading a store never makes one, so a mistyped
/// path is an error naming it rather than a new empty store that reports nothing found.
public enum StoreCreation: Sendable, Equatable {
    /// An existing file only: a missing one is ``StoreError/noStore(path:)``, and nothing is made.
    /// For reading a store, or copying from one.
    case never
    /// A missing file is made, in a folder that exists: a missing folder is
    /// ``StoreError/noFolder(path:folder:)``, and nothing is made. For adding to a store named
    /// by its path.
    case inExistingFolder
    /// A missing file is made, with its folders: the default store
    /// (``CourseStore/defaultPath(environment:)``), whose folder is made on first use.
    case withFolders
}
