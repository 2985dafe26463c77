import Foundation
import Testing

@testable import RunnectKit

/// The tangent plane the matcher indexes runs in: round trips, and plane distances against
/// GeographicLib's geodesics.
@Suite("Matching: local tangent plane")
struct LocalTangentPlaneMatchingTests {
    @Test(
        "latitude and longitude survive the trip through Earth-centred coordinates",
        arguments: [
            Coordinate(latitude: 37.52, longitude: 127.1215), Coordinate(latitude: -16.8, longitude: 180),
            Coordinate(latitude: -16.8, longitude: -179.9999), Coordinate(latitude: 89.9999, longitude: 45),
            Coordinate(latitude: -89.99999, longitude: -120), Coordinate(latitude: 0, longitude: 0),
        ])
    func roundTrip(coordinate: Coordinate) throws {
        let back = LocalTangentPlane.coordinate(of: LocalTangentPlane.earthCentred(coordinate))
        // Compared as a distance: near the poles a longitude means little.
        let error = try #require(Geodesic.distance(from: coordinate, to: back))
        #expect(error < 1e-6)
    }

    @Test("the poles themselves come back as the poles")
    func poles() {
        #expect(
            LocalTangentPlane.coordinate(of: LocalTangentPlane.earthCentred(latitude: 90, longitude: 10)).latitude == 90
        )
        #expect(
            LocalTangentPlane.coordinate(of: LocalTangentPlane.earthCentred(latitude: -90, longitude: 0)).latitude
                == -90)
    }

    @Test(
        "a plane distance is at most the geodesic one (to rounding), and within a millimetre of it for 30 m, 20 km out",
        arguments: [0.0, 45, 89.9])
    func planeAgainstGeodesic(latitude: Double) throws {
        let reference = Coordinate(latitude: latitude, longitude: 179.99)
        let plane = LocalTangentPlane(reference: reference)
        for azimuth in stride(from: 0.0, to: 360, by: 30) {
            let far = try #require(
                Geodesic.destination(from: reference, azimuthDegrees: azimuth, distanceMeters: 20_000))
            for direction in stride(from: 0.0, to: 360, by: 45) {
                let near = try #require(Geodesic.destination(from: far, azimuthDegrees: direction, distanceMeters: 30))
                let a = plane.project(LocalTangentPlane.earthCentred(far))
                let b = plane.project(LocalTangentPlane.earthCentred(near))
                let planeMeters = ((a - b) * (a - b)).sum().squareRoot()
                #expect(planeMeters <= 30 + 1e-8)  // rounding of coordinates of 6,400 km
                #expect(planeMeters > 30 - 1e-3)
            }
        }
    }
}
