/// A store location whose backend this build leaves out.
public enum BackendNotBuilt: Error, Equatable, CustomStringConvertible {
    /// A `postgresql://` URL, in a build without the package's `PostgreSQL` trait
    /// (`swift build --disable-default-traits`).
    case postgreSQL

    public var description: String {
        switch self {
        case .postgreSQL:
            "this runnect was built without PostgreSQL (--disable-default-traits); build it with "
                + "`swift build -c release --product runnect` to open postgresql:// stores"
        }
    }
}
