/// How ``GeoJSONWriter`` writes a course.
public struct GeoJSONOptions: Sendable, Equatable {
    /// Douglas–Peucker tolerance, metres (see ``Simplifier``); `nil` or 0 writes every point.
    public var simplifyToleranceMeters: Double?
    /// Whether positions carry the elevation as a third value. Written only when every point of
    /// the course has one, so that all positions of a geometry have the same dimension.
    public var includeElevation: Bool
    /// Whether the activity's waypoints are written as `Point` features after the course.
    public var includeWaypoints: Bool
    /// Decimal places for longitudes and latitudes (6 is about 0.1 m); `nil` writes each number
    /// in the shortest form that reads back as the same `Double`.
    public var coordinateDecimals: Int?

    public init(
        simplifyToleranceMeters: Double? = nil, includeElevation: Bool = true,
        includeWaypoints: Bool = true, coordinateDecimals: Int? = nil
    ) {
        self.simplifyToleranceMeters = simplifyToleranceMeters
        self.includeElevation = includeElevation
        self.includeWaypoints = includeWaypoints
        self.coordinateDecimals = coordinateDecimals
    }
}
