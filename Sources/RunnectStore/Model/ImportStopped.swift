/// A bulk import stopped midway: a batch's transaction failed as a whole (the database went away,
/// say). Nothing of that batch was stored, nor anything after it; the batches before it were.
/// Running the same import again stores what is missing (what is there is skipped).
public struct ImportStopped: Error, Sendable, CustomStringConvertible {
    /// Why the batch failed.
    public var reason: StoreError
    /// The files not imported: the failed batch's and every later one's, in order.
    public var notImported: [String]

    public init(reason: StoreError, notImported: [String]) {
        self.reason = reason
        self.notImported = notImported
    }

    public var description: String {
        "the import stopped: \(reason); \(notImported.count) file(s) not imported "
            + "(run the same import again to import them)"
    }
}
