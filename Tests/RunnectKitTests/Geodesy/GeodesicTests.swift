import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// `Geodesic` checked against GeographicLib's own command-line solver, `GeodSolve`, run as a
/// separate process (Debian/Ubuntu package `geographiclib-tools`), plus the path helpers and input
/// validation.
///
/// Without `GeodSolve` on `PATH` the comparison tests are skipped locally and fail on CI (the
/// `.requires` trait), so a CI image that lost the package cannot pass silently.
@Suite("Geodesic")
struct GeodesicTests {
    // MARK: - Inverse problem vs GeodSolve -i

    @Test(
        "inverse(from:to:) matches GeodSolve -i on 570 hard and easy pairs",
        .requires(GeodSolve.located != nil, GeodSolve.missingMessage))
    func inverseMatchesGeodSolve() throws {
        let tool = try #require(GeodSolve.located)
        let cases = InverseCase.all()
        #expect(cases.count >= 500)
        let input = cases.map { c in
            [c.a.latitude, c.a.longitude, c.b.latitude, c.b.longitude]
                .map(GeodSolve.plainDecimal).joined(separator: " ")
        }
        // GeodSolve links the same libGeographicLib as our shim, so this catches mistakes in the
        // bridging (argument order, azimuth order, wrapping, rejected input)...
        let rows = try tool.run(arguments: ["-i", "-p", "9"], lines: input, fieldsPerLine: 3)
        let series = compareInverse(cases, rows)
        // ...and its -E mode (GeodesicExact: elliptic integrals, not series) is an independent
        // algorithm, good to about 15 nm on WGS84.
        let exactRows = try tool.run(arguments: ["-E", "-i", "-p", "9"], lines: input, fieldsPerLine: 3)
        let exact = compareInverse(cases, exactRows)

        for c in cases {
            let ours = Geodesic.inverse(from: c.a, to: c.b)
            #expect(Geodesic.distance(from: c.a, to: c.b) == ours?.distanceMeters)
            if c.kind == .zeroLength {
                #expect(ours?.distanceMeters == 0, "\(c)")
            }
            if c.kind == .antipodal, let ours {
                // Antipodes on an oblate ellipsoid are always half a meridian apart.
                #expect(abs(ours.distanceMeters - Self.halfMeridian) <= 1e-6, "\(c)")
            }
        }

        let kinds = Dictionary(grouping: cases, by: \.kind).mapValues(\.count)
            .sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        print(
            "GeodSolve -i: \(cases.count) pairs (\(kinds)), \(series.azimuthsCompared) with azimuths; "
                + "max |Δs12| = \(series.distance) m, max |Δazi| = \(series.azimuth)°; "
                + "against -E: \(exact.distance) m, \(exact.azimuth)°")
    }

    /// Expects every pair to match `rows` (azi1 azi2 s12) and returns the largest differences.
    private func compareInverse(
        _ cases: [InverseCase], _ rows: [[Double]],
        sourceLocation: SourceLocation = #_sourceLocation
    )
        -> (distance: Double, azimuth: Double, azimuthsCompared: Int)
    {
        var maxDistance = 0.0
        var maxAzimuth = 0.0
        var azimuthsCompared = 0
        for (c, row) in zip(cases, rows) {
            let (azi1, azi2, s12) = (row[0], row[1], row[2])
            guard let ours = Geodesic.inverse(from: c.a, to: c.b) else {
                Issue.record("inverse returned nil for \(c)", sourceLocation: sourceLocation)
                continue
            }
            let ds = abs(ours.distanceMeters - s12)
            maxDistance = max(maxDistance, ds)
            #expect(
                ds <= 1e-6, "s12 \(ours.distanceMeters) vs GeodSolve \(s12) for \(c)",
                sourceLocation: sourceLocation)
            guard c.azimuthsDefined else { continue }
            azimuthsCompared += 1
            let d1 = GeodSolve.angleDifference(ours.initialAzimuthDegrees, azi1)
            let d2 = GeodSolve.angleDifference(ours.finalAzimuthDegrees, azi2)
            maxAzimuth = max(maxAzimuth, d1, d2)
            #expect(
                d1 <= 1e-9, "azi1 \(ours.initialAzimuthDegrees) vs GeodSolve \(azi1) for \(c)",
                sourceLocation: sourceLocation)
            #expect(
                d2 <= 1e-9, "azi2 \(ours.finalAzimuthDegrees) vs GeodSolve \(azi2) for \(c)",
                sourceLocation: sourceLocation)
        }
        return (maxDistance, maxAzimuth, azimuthsCompared)
    }

    // MARK: - Direct problem vs GeodSolve

    @Test(
        "destination(from:azimuthDegrees:distanceMeters:) matches GeodSolve (direct) on 220 cases",
        .requires(GeodSolve.located != nil, GeodSolve.missingMessage))
    func destinationMatchesGeodSolve() throws {
        let tool = try #require(GeodSolve.located)
        let cases = DirectCase.all()
        let input = cases.map { c in
            [c.start.latitude, c.start.longitude, c.azimuth, c.distance]
                .map(GeodSolve.plainDecimal).joined(separator: " ")
        }
        let series = compareDirect(cases, try tool.run(arguments: ["-p", "9"], lines: input, fieldsPerLine: 3))
        let exact = compareDirect(cases, try tool.run(arguments: ["-E", "-p", "9"], lines: input, fieldsPerLine: 3))
        print(
            "GeodSolve direct: \(cases.count) cases; max |Δlat2| = \(series.latitude)°, "
                + "max |Δlon2| = \(series.longitude)°; against -E: \(exact.latitude)°, \(exact.longitude)°")
    }

    /// Expects every case to match `rows` (lat2 lon2 azi2) and returns the largest differences.
    private func compareDirect(
        _ cases: [DirectCase], _ rows: [[Double]],
        sourceLocation: SourceLocation = #_sourceLocation
    )
        -> (latitude: Double, longitude: Double)
    {
        var maxLatitude = 0.0
        var maxLongitude = 0.0
        for (c, row) in zip(cases, rows) {
            let (lat2, lon2) = (row[0], row[1])
            guard
                let ours = Geodesic.destination(
                    from: c.start, azimuthDegrees: c.azimuth,
                    distanceMeters: c.distance)
            else {
                Issue.record("destination returned nil for \(c)", sourceLocation: sourceLocation)
                continue
            }
            let dLat = abs(ours.latitude - lat2)
            maxLatitude = max(maxLatitude, dLat)
            #expect(
                dLat <= 1e-9, "lat2 \(ours.latitude) vs GeodSolve \(lat2) for \(c)",
                sourceLocation: sourceLocation)
            #expect(
                (-180...180).contains(ours.longitude), "lon2 \(ours.longitude) not normalised",
                sourceLocation: sourceLocation)
            // At a pole every longitude is the same point.
            guard abs(lat2) < 90 - 1e-9 else { continue }
            let dLon = GeodSolve.angleDifference(ours.longitude, lon2)
            maxLongitude = max(maxLongitude, dLon)
            #expect(
                dLon <= 1e-9, "lon2 \(ours.longitude) vs GeodSolve \(lon2) for \(c)",
                sourceLocation: sourceLocation)
        }
        return (maxLatitude, maxLongitude)
    }

    // MARK: - Paths

    @Test("length(of:) of a 10,000-point path is the sum of its legs")
    func pathLengthIsSumOfLegs() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        // A GPS-like random walk from Seoul: legs of 0–30 m, one fix in 20 stationary, the odd
        // dropout jump of a few kilometres.
        var path: [Coordinate] = []
        path.reserveCapacity(10_000)
        var lat = 37.5100
        var lon = 127.0600
        for _ in 0..<10_000 {
            path.append(Coordinate(latitude: lat, longitude: lon))
            if rng.chance(0.05) { continue }
            let step = rng.chance(0.002) ? 0.05 : 0.0003
            lat += rng.double(in: -step...step)
            lon += rng.double(in: -step...step)
        }

        var expected = 0.0
        var expectedLegs: [Double] = []
        for i in 1..<path.count {
            let leg = Geodesic.distance(from: path[i - 1], to: path[i])!
            expectedLegs.append(leg)
            expected += leg
        }
        #expect(expectedLegs.contains(0), "the walk should contain stationary fixes")

        let total = Geodesic.length(of: path)
        #expect(abs(total - expected) <= 1e-6, "length \(total) vs sum of legs \(expected)")

        var legs = [Double](repeating: -1, count: path.count - 1)
        let sum = path.withUnsafeBufferPointer { points in
            legs.withUnsafeMutableBufferPointer { Geodesic.legLengths(of: points, into: $0) }
        }
        #expect(abs(sum - expected) <= 1e-6)
        // Short legs are summed by the mid-latitude formula, held to GeographicLib within its bound.
        let wrong = zip(legs, expectedLegs).filter { abs($0 - $1) > GeodesicShortLegTests.bound }.count
        #expect(wrong == 0, "legs differing from distance(from:to:) by more than the short-leg bound: \(wrong)")
    }

    @Test("legLengths reads latitude and longitude in place from any struct layout")
    func legLengthsOfCustomStruct() {
        struct Fix {
            var time: Double
            var longitude: Double
            var heartRate: UInt8
            var latitude: Double
            var elevation: Float
            /// Not stored: forces the copying fallback.
            var latitudeComputed: Double { latitude }
        }
        var rng = SplitMix64(seed: 0x5EED_0002)
        let fixes = (0..<1_000).map { i in
            Fix(
                time: Double(i), longitude: rng.double(in: -180...180), heartRate: 140,
                latitude: rng.double(in: -90...90), elevation: 12)
        }
        let coordinates = fixes.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let reference = Geodesic.length(of: coordinates)

        var legs = [Double](repeating: .nan, count: fixes.count - 1)
        let stored = fixes.withUnsafeBufferPointer { points in
            legs.withUnsafeMutableBufferPointer {
                Geodesic.legLengths(of: points, latitude: \.latitude, longitude: \.longitude, into: $0)
            }
        }
        #expect(stored == reference)
        for i in 1..<fixes.count {
            #expect(legs[i - 1] == Geodesic.distance(from: coordinates[i - 1], to: coordinates[i]))
        }

        let computed = fixes.withUnsafeBufferPointer {
            Geodesic.legLengths(of: $0, latitude: \.latitudeComputed, longitude: \.longitude, into: nil)
        }
        #expect(computed == reference)
    }

    @Test("a path of 0 or 1 point has length 0")
    func degeneratePaths() {
        #expect(Geodesic.length(of: []) == 0)
        #expect(Geodesic.length(of: [Coordinate(latitude: 37.51, longitude: 127.06)]) == 0)
        let one = [Coordinate(latitude: 37.51, longitude: 127.06)]
        var legs: [Double] = []
        let sum = one.withUnsafeBufferPointer { points in
            legs.withUnsafeMutableBufferPointer { Geodesic.legLengths(of: points, into: $0) }
        }
        #expect(sum == 0)
        let p = Coordinate(latitude: 37.5, longitude: 127)
        #expect(Geodesic.length(of: [p, p, p]) == 0)
        #expect(Geodesic.distance(from: p, to: p) == 0)
    }

    // MARK: - Invalid input

    @Test(
        "invalid coordinates give nil",
        arguments: [
            (Coordinate(latitude: 91, longitude: 0), Coordinate(latitude: 0, longitude: 0)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: -91, longitude: 0)),
            (Coordinate(latitude: 90.000001, longitude: 10), Coordinate(latitude: 0, longitude: 0)),
            (Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: 0, longitude: 0)),
            (Coordinate(latitude: 0, longitude: .nan), Coordinate(latitude: 0, longitude: 0)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: .nan, longitude: 0)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: .nan)),
            (Coordinate(latitude: .infinity, longitude: 0), Coordinate(latitude: 0, longitude: 0)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: -.infinity)),
        ])
    func invalidInverse(a: Coordinate, b: Coordinate) {
        #expect(Geodesic.inverse(from: a, to: b) == nil)
        #expect(Geodesic.distance(from: a, to: b) == nil)
    }

    @Test("invalid direct problems give nil")
    func invalidDirect() {
        let seoul = Coordinate(latitude: 37.51, longitude: 127.06)
        #expect(
            Geodesic.destination(
                from: Coordinate(latitude: 91, longitude: 0),
                azimuthDegrees: 0, distanceMeters: 1) == nil)
        #expect(
            Geodesic.destination(
                from: Coordinate(latitude: .nan, longitude: 0),
                azimuthDegrees: 0, distanceMeters: 1) == nil)
        #expect(
            Geodesic.destination(
                from: Coordinate(latitude: 0, longitude: .nan),
                azimuthDegrees: 0, distanceMeters: 1) == nil)
        #expect(Geodesic.destination(from: seoul, azimuthDegrees: .nan, distanceMeters: 1) == nil)
        #expect(Geodesic.destination(from: seoul, azimuthDegrees: 0, distanceMeters: .nan) == nil)
        #expect(Geodesic.destination(from: seoul, azimuthDegrees: 0, distanceMeters: .infinity) == nil)
        #expect(Geodesic.destination(from: seoul, azimuthDegrees: 90, distanceMeters: 0) == seoul)
    }

    @Test("a path with an invalid latitude has a NaN length")
    func invalidPath() {
        let path = [
            Coordinate(latitude: 37.51, longitude: 127.06),
            Coordinate(latitude: 91, longitude: 127.06),
            Coordinate(latitude: 37.52, longitude: 127.06),
        ]
        #expect(Geodesic.length(of: path).isNaN)
        // A fix without a position repeated is no stationary leg: the stats take a NaN leg to
        // mean a point without a position, and measure the positioned points alone then.
        for bad in [
            Coordinate(latitude: 91, longitude: 127.06), Coordinate(latitude: .nan, longitude: 127.06),
            Coordinate(latitude: 37.5, longitude: .infinity),
        ] {
            #expect(Geodesic.length(of: [bad, bad]).isNaN)
        }
    }

    @Test("zero-length leg is zero")
    func zeroLengthLegIsZero() {
        let p = Coordinate(latitude: 37.5, longitude: 127)
        #expect(Geodesic.distance(from: p, to: p) == 0)
        let q = Coordinate(latitude: 90, longitude: -45)
        #expect(Geodesic.distance(from: q, to: Coordinate(latitude: 90, longitude: 135)) == 0)
        #expect(
            Geodesic.distance(
                from: Coordinate(latitude: 10, longitude: 180),
                to: Coordinate(latitude: 10, longitude: -180)) == 0)
    }

    /// Half the WGS84 meridian, the distance between any two antipodes (GeographicLib's value).
    static let halfMeridian = 20_003_931.458625447
}

// MARK: - Cases

/// One inverse-problem pair and what may be compared for it.
private struct InverseCase: CustomStringConvertible {
    enum Kind: String {
        case random, short, nearAntipodal, antipodal, polar, antimeridian, equatorial, meridional
        case zeroLength
    }

    var kind: Kind
    var a: Coordinate
    var b: Coordinate
    /// False where the azimuths are a convention (coincident points, exact antipodes, a pole).
    var azimuthsDefined: Bool

    var description: String {
        "\(kind.rawValue) (\(GeodSolve.plainDecimal(a.latitude)), \(GeodSolve.plainDecimal(a.longitude)))"
            + " → (\(GeodSolve.plainDecimal(b.latitude)), \(GeodSolve.plainDecimal(b.longitude)))"
    }

    init(
        _ kind: Kind, _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double,
        azimuthsDefined: Bool = true
    ) {
        self.kind = kind
        a = Coordinate(latitude: lat1, longitude: lon1)
        b = Coordinate(latitude: lat2, longitude: lon2)
        self.azimuthsDefined =
            azimuthsDefined && abs(lat1) != 90 && abs(lat2) != 90
            && !(lat1 == lat2 && lon1 == lon2)
    }

    /// Reduces a longitude to [-180, 180].
    static func wrap(_ lon: Double) -> Double {
        lon > 180 ? lon - 360 : (lon < -180 ? lon + 360 : lon)
    }

    /// A longitude on a 2⁻²⁴° grid, so that adding or removing 180° is exact.
    static func gridLongitude(_ rng: inout SplitMix64) -> Double {
        Double(rng.int(in: -(180 << 24)...(180 << 24))) * 0x1p-24
    }

    static func all() -> [InverseCase] {
        var rng = SplitMix64(seed: 0x6E0D_501E)
        var cases: [InverseCase] = []

        // Uniformly random pairs over the globe (uniform on the sphere, not in latitude).
        for _ in 0..<150 {
            let lat1 = asin(rng.double(in: -1...1)) * 180 / .pi
            let lat2 = asin(rng.double(in: -1...1)) * 180 / .pi
            cases.append(
                .init(
                    .random, lat1, rng.double(in: -180...180),
                    lat2, rng.double(in: -180...180)))
        }

        // Short legs, centimetres to a few hundred metres apart, as between GPS fixes.
        for i in 0..<100 {
            let lat1 = i < 80 ? rng.double(in: -70...70) : rng.double(in: -89.99...89.99)
            let lon1 = rng.double(in: -180...180)
            let dLat = rng.sign() * rng.magnitude(decades: -8 ... -3)
            let dLon = rng.sign() * rng.magnitude(decades: -8 ... -3)
            cases.append(.init(.short, lat1, lon1, lat1 + dLat, wrap(lon1 + dLon)))
        }

        // Nearly antipodal: (lat, lon) and (−lat ± ε, lon + 180 ± ε), ε from 1e-12° to 1e-2°,
        // a quarter of them on or next to the equator, where the geodesic is hardest to find.
        for i in 0..<100 {
            var lat1 =
                i < 25
                ? (i < 10 ? 0 : rng.sign() * rng.magnitude(decades: -10 ... -4))
                : rng.double(in: -89...89)
            if i % 7 == 0 { lat1 = rng.double(in: -5...5) }
            let lon1 = rng.double(in: -180...180)
            let dLat = i % 5 == 0 ? 0 : rng.sign() * rng.magnitude(decades: -12 ... -2)
            let dLon = i % 5 == 1 ? 0 : rng.sign() * rng.magnitude(decades: -12 ... -2)
            cases.append(.init(.nearAntipodal, lat1, lon1, -lat1 + dLat, wrap(lon1 + 180 + dLon)))
        }

        // Exactly antipodal, equator included: every such pair is half a meridian apart.
        for i in 0..<30 {
            let lat1 = i < 5 ? 0 : rng.double(in: -90...90)
            let lon1 = gridLongitude(&rng)
            cases.append(
                .init(
                    .antipodal, lat1, lon1, -lat1, lon1 > 0 ? lon1 - 180 : lon1 + 180,
                    azimuthsDefined: false))
        }

        // Polar: at a pole (azimuths conventional) or 0.0001° from it (azimuths defined).
        for i in 0..<40 {
            let pole = [90.0, -90.0, 89.9999, -89.9999][i % 4]
            let lon1 = rng.double(in: -180...180)
            switch i / 4 % 5 {
            case 0:  // pole to anywhere
                cases.append(
                    .init(
                        .polar, pole, lon1, rng.double(in: -90...90),
                        rng.double(in: -180...180)))
            case 1:  // anywhere to the pole
                cases.append(
                    .init(
                        .polar, rng.double(in: -90...90), lon1, pole,
                        rng.double(in: -180...180)))
            case 2:  // across the pole, to the other side of it
                cases.append(.init(.polar, pole, lon1, pole, wrap(lon1 + 180 + rng.double(in: -1...1))))
            case 3:  // to the other pole or near it
                cases.append(
                    .init(
                        .polar, pole, lon1, -pole + (pole > 0 ? 1e-9 : -1e-9) * Double(i % 2),
                        rng.double(in: -180...180)))
            default:  // along the pole's parallel
                cases.append(.init(.polar, pole, lon1, pole, wrap(lon1 + rng.double(in: -90...90))))
            }
        }

        // Across the antimeridian: 179.9 → −179.9 and friends.
        cases.append(.init(.antimeridian, 0, 179.9, 0, -179.9))
        cases.append(.init(.antimeridian, 37.5, 179.9, 37.5, -179.9))
        cases.append(.init(.antimeridian, -64.2, -179.9, -64.1, 179.9))
        cases.append(.init(.antimeridian, 10, 180, 10, -180, azimuthsDefined: false))  // same point
        for _ in 0..<36 {
            let lat1 = rng.double(in: -80...80)
            let lon1 = 180 - rng.magnitude(decades: -9 ... -1)
            let lon2 = -180 + rng.magnitude(decades: -9 ... -1)
            let lat2 = lat1 + rng.double(in: -0.1...0.1)
            if rng.chance(0.5) {
                cases.append(.init(.antimeridian, lat1, lon1, lat2, lon2))
            } else {
                cases.append(.init(.antimeridian, lat2, lon2, lat1, lon1))
            }
        }

        // Along the equator, up to (but not exactly) half way round: beyond about 179.4° of
        // longitude the shortest path leaves the equator.
        for i in 0..<40 {
            let lon1 = rng.double(in: -180...180)
            let dLon = i < 10 ? 180 - rng.magnitude(decades: -9...0) : rng.double(in: -179...179)
            cases.append(.init(.equatorial, 0, lon1, 0, wrap(lon1 + dLon)))
        }

        // Along a meridian, same longitude or over a pole onto the opposite one.
        for i in 0..<40 {
            let lon1 = gridLongitude(&rng)
            let lat1 = rng.double(in: -89.9...89.9)
            let lat2 = rng.double(in: -89.9...89.9)
            let lon2 = i % 4 == 3 ? (lon1 > 0 ? lon1 - 180 : lon1 + 180) : lon1
            cases.append(.init(.meridional, lat1, lon1, lat2, lon2))
        }

        // Identical points, poles and antimeridian included.
        let specialLatitudes = [90.0, -90.0, 0]
        let specialLongitudes = [180.0, -180.0, 0, 179.9]
        for i in 0..<30 {
            let lat = i < 3 ? specialLatitudes[i] : rng.double(in: -90...90)
            let lon = (3..<7).contains(i) ? specialLongitudes[i - 3] : rng.double(in: -180...180)
            cases.append(.init(.zeroLength, lat, lon, lat, lon))
        }
        return cases
    }
}

/// One direct-problem case.
private struct DirectCase: CustomStringConvertible {
    var start: Coordinate
    var azimuth: Double
    var distance: Double

    var description: String {
        "(\(GeodSolve.plainDecimal(start.latitude)), \(GeodSolve.plainDecimal(start.longitude))) "
            + "azi \(GeodSolve.plainDecimal(azimuth)) s12 \(GeodSolve.plainDecimal(distance))"
    }

    static func all() -> [DirectCase] {
        var rng = SplitMix64(seed: 0xD1_4EC7)
        var cases: [DirectCase] = []
        for i in 0..<200 {
            let lat = i < 10 ? [90.0, -90.0, 89.9999, -89.9999, 0][i % 5] : rng.double(in: -90...90)
            // 1 m to 40,000 km (more than once round), a tenth of them backwards.
            let s12 = (i % 10 == 9 ? -1 : 1) * rng.magnitude(decades: 0...6) * (i % 3 == 0 ? 4 : 1)
            cases.append(
                DirectCase(
                    start: Coordinate(latitude: lat, longitude: rng.double(in: -180...180)),
                    azimuth: rng.double(in: -180...180), distance: s12))
        }
        // Straight over the antimeridian, along the equator, due north over a pole.
        cases.append(DirectCase(start: Coordinate(latitude: 0, longitude: 179.9), azimuth: 90, distance: 30_000))
        cases.append(DirectCase(start: Coordinate(latitude: 37.51, longitude: -179.99), azimuth: -90, distance: 5_000))
        cases.append(
            DirectCase(start: Coordinate(latitude: 0, longitude: 0), azimuth: 90, distance: 20_037_508.342789244))
        cases.append(DirectCase(start: Coordinate(latitude: 89.5, longitude: 10), azimuth: 0, distance: 200_000))
        for _ in 0..<16 {
            cases.append(
                DirectCase(
                    start: Coordinate(
                        latitude: rng.double(in: -60...60), longitude: 180 - rng.magnitude(decades: -6 ... -2)),
                    azimuth: rng.double(in: 0...180), distance: rng.magnitude(decades: 1...5)))
        }
        return cases
    }
}

// MARK: - Running GeodSolve

/// GeographicLib's `GeodSolve` as an independent oracle.
struct GeodSolve {
    let executable: URL

    /// `GeodSolve` found on `PATH`, if any.
    static let located: GeodSolve? = ExternalTool.path("GeodSolve").map {
        GeodSolve(executable: URL(fileURLWithPath: $0))
    }

    static let missingMessage =
        "GeodSolve (GeographicLib's command-line solver) is not on PATH; "
        + "install the geographiclib-tools package (apt-get install geographiclib-tools)"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the tool once on all `lines` (read through `--input-file`, so no pipe can fill up while
    /// the other is not read) and returns one row of `fieldsPerLine` numbers per input line.
    func run(arguments: [String], lines: [String], fieldsPerLine: Int) throws -> [[Double]] {
        let inputURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("runnect-geodsolve-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: inputURL, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: inputURL) }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--input-file", inputURL.path]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        try? stdout.fileHandleForReading.close()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        try? stderr.fileHandleForReading.close()
        process.waitUntilExit()

        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let firstError = text.split(separator: "\n").first { $0.hasPrefix("ERROR") } ?? ""
            throw Failure(
                description: "GeodSolve \(arguments.joined(separator: " ")) exited with "
                    + "\(process.terminationStatus): \(firstError) "
                    + String(decoding: errors, as: UTF8.self))
        }
        let rows = text.split(separator: "\n").map { line in
            line.split(separator: " ").compactMap { Double($0) }
        }
        guard rows.count == lines.count, rows.allSatisfy({ $0.count == fieldsPerLine }) else {
            throw Failure(
                description: "GeodSolve gave \(rows.count) lines for \(lines.count) inputs: "
                    + "\(text.prefix(500))")
        }
        return rows
    }

    /// `x` in plain positional notation with the shortest digits that read back as `x` exactly.
    ///
    /// GeodSolve reads `1e-05` as "1 East −05" (e is a hemisphere), so no exponents; it reads a
    /// plain decimal with C++ streams, which round correctly.
    static func plainDecimal(_ x: Double) -> String {
        let shortest = x.description
        guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return shortest }
        let exponent = Int(shortest[shortest.index(after: e)...])!
        var mantissa = Substring(shortest[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let point =
            mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        let digits = Array(mantissa.filter { $0 != "." })
        let newPoint = point + exponent
        var result: String
        if newPoint <= 0 {
            result = "0." + String(repeating: "0", count: -newPoint) + String(digits)
        } else if newPoint >= digits.count {
            result = String(digits) + String(repeating: "0", count: newPoint - digits.count)
        } else {
            result = String(digits[..<newPoint]) + "." + String(digits[newPoint...])
        }
        if negative { result = "-" + result }
        precondition(Double(result) == x, "plainDecimal(\(x)) = \(result) does not read back")
        return result
    }

    /// |a − b| for angles in degrees, modulo 360.
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        abs((a - b).remainder(dividingBy: 360))
    }
}
