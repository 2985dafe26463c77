/// When a change a SQLite store acknowledged is sure to be on disk. (On PostgreSQL the server's
/// own settings decide: `fsync` and `synchronous_commit`.)
public enum StoreDurability: Sendable, Equatable {
    /// The change survives the process being killed; a power cut or a crash of the system may
    /// lose the last commits (SQLite's `synchronous = NORMAL` in WAL mode: no `fsync` at each
    /// commit). The CLI's default: an import run again after a power cut stores what was lost.
    case processCrash
    /// The change survives a power cut: each commit waits for the disk (`synchronous = FULL`).
    /// A server's default, where an answer tells a client their change is stored.
    case powerLoss
}
