import Foundation

/// A small, self-contained SVG picture of a course: the route in Web Mercator (so it has the
/// shape it has on a map), fitted to the picture with padding and its aspect ratio kept, the
/// start (green) and finish (red) marked, and optionally an elevation profile along the bottom.
///
/// No external resources, no scripts, no text other than the escaped `<title>`: the file can be
/// served as it is and opened anywhere. The path is simplified to the pixel size
/// (``SVGPreviewOptions/simplifyTolerancePixels``), so the text stays small whatever the number
/// of points.
///
/// ```swift
/// let preview = try SVGPreview(activity: activity, options: SVGPreviewOptions(title: course.title))
/// try preview.svg.write(toFile: "42.svg", atomically: true, encoding: .utf8)
/// ```
///
/// Longitudes are unwrapped along the route, so a course across the antimeridian is drawn in
/// one piece. Latitudes beyond ±85.0511° (the edge of Web Mercator) are drawn at the edge.
/// - Complexity: O(n log n) in the number of points (projection, then simplification).
public struct SVGPreview: Sendable {
    /// The options the picture was drawn with.
    public let options: SVGPreviewOptions
    /// The SVG document, UTF-8 text ending in a newline.
    public let svg: String
    /// The rectangle the route is fitted into (the picture less the profile band), pixels.
    public let mapFrame: (x: Double, y: Double, width: Double, height: Double)

    /// Where the projection puts positions: pixel = (mercator − origin) × scale, y downwards.
    private let projection: WebMercatorFit?

    /// Stroke and marker colours, fixed (no caller text ever reaches an attribute).
    static let routeColor = "#e4572e"
    static let startColor = "#1f9d55"
    static let finishColor = "#d62828"
    static let backgroundColor = "#ffffff"
    static let profileColor = "#4a6fa5"

    /// Draws `activity` (its ``Activity/courseSegments``, one sub-path each; waypoints are not
    /// drawn).
    /// - Throws: ``WriteError/invalidSize(width:height:)`` for a size outside 16…8192 pixels.
    public init(activity: Activity, options: SVGPreviewOptions = SVGPreviewOptions()) throws {
        guard (16...8192).contains(options.widthPixels), (16...8192).contains(options.heightPixels) else {
            throw WriteError.invalidSize(width: options.widthPixels, height: options.heightPixels)
        }
        self.options = options
        let width = Double(options.widthPixels)
        let height = Double(options.heightPixels)
        let padding = min(max(options.paddingPixels.isFinite ? options.paddingPixels : 0, 0), min(width, height) / 4)

        let segments = activity.courseSegments.map { $0.filter(SegmentMeasurement.hasPosition) }.filter { !$0.isEmpty }
        let hasElevation = segments.contains { $0.contains { $0.elevationMeters?.isFinite == true } }
        let profileHeight = options.includeProfile && hasElevation ? (height / 4).rounded() : 0
        let frame = (x: 0.0, y: 0.0, width: width, height: height - profileHeight)
        mapFrame = frame

        var out = SVGText(width: options.widthPixels, height: options.heightPixels)
        if let title = options.title { out.title(title) }
        out.background(color: Self.backgroundColor)

        let mercator = WebMercatorFit.project(segments)

        if let projection = WebMercatorFit(fitting: mercator, into: frame, padding: padding) {
            self.projection = projection
            var path = SVGPathData()
            for projected in mercator {
                path.addSubpath(projected.map(projection.pixel), tolerance: options.simplifyTolerancePixels)
            }
            out.route(path.text, color: Self.routeColor)
            let start = projection.pixel(mercator.first!.first!)
            let finish = projection.pixel(mercator.last!.last!)
            // The finish is the larger disc under the start, so a loop shows both (a red ring
            // round the green dot).
            out.marker(at: finish, radius: 7, color: Self.finishColor)
            out.marker(at: start, radius: 4, color: Self.startColor)
        } else {
            self.projection = nil
        }

        if profileHeight > 0 {
            let band = (
                x: padding, y: height - profileHeight + padding / 2,
                width: width - 2 * padding, height: profileHeight - padding
            )
            if let profile = ElevationProfile(
                segments: segments, frame: band,
                tolerance: options.simplifyTolerancePixels)
            {
                out.profile(line: profile.line, area: profile.area, color: Self.profileColor)
            }
        }
        svg = out.finish()
    }

    /// The pixel a position is drawn at, or `nil` when the course has no positioned point.
    ///
    /// The longitude is taken as the representation (±360°) nearest the route's, as drawn.
    public func pixel(for coordinate: Coordinate) -> (x: Double, y: Double)? {
        guard let projection else { return nil }
        var longitude = coordinate.longitude
        longitude -= 360 * ((longitude - projection.centerLongitude) / 360).rounded()
        return projection.pixel(WebMercatorFit.mercator(latitude: coordinate.latitude, longitude: longitude))
    }
}
