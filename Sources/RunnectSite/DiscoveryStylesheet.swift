/// The discovery page's stylesheet (`Resources/index.css`): its look and its course cards, shared
/// by `runnect index`'s static page (inlined there) and the page `runnect serve` answers at `/`
/// (served there with the server page's own rules after it), so both look the same.
public enum DiscoveryStylesheet {
    /// The stylesheet's UTF-8 bytes, as built in.
    public static var bytes: [UInt8] { PackageResources.index_css }
}
