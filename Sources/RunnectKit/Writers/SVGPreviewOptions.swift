/// How ``SVGPreview`` draws a course.
public struct SVGPreviewOptions: Sendable, Equatable {
    /// Width of the whole picture, pixels (16…8192).
    public var widthPixels: Int
    /// Height of the whole picture, pixels (16…8192), the profile band included.
    public var heightPixels: Int
    /// Empty margin kept round the route (and round the profile), pixels.
    public var paddingPixels: Double
    /// Whether an elevation profile is drawn in a band along the bottom (a quarter of the height).
    /// A course without elevations gets no band.
    public var includeProfile: Bool
    /// Written as the picture's `<title>` (escaped), which browsers show as a tooltip and screen
    /// readers read out.
    public var title: String?
    /// Douglas–Peucker tolerance in pixels: detail finer than this cannot be seen, and leaving it
    /// out keeps a marathon's preview at a few kilobytes.
    public var simplifyTolerancePixels: Double

    public init(
        widthPixels: Int = 400, heightPixels: Int = 300, paddingPixels: Double = 16,
        includeProfile: Bool = false, title: String? = nil, simplifyTolerancePixels: Double = 0.5
    ) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.paddingPixels = paddingPixels
        self.includeProfile = includeProfile
        self.title = title
        self.simplifyTolerancePixels = simplifyTolerancePixels
    }
}
