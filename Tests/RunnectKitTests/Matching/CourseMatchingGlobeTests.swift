import Foundation
import Testing

@testable import RunnectKit

/// Courses where longitudes wrap or stop meaning much: across the antimeridian, over a pole.
@Suite("Matching: antimeridian and poles")
struct CourseMatchingGlobeTests {
    typealias Build = MatchingTrackBuilder

    @Test("a course across the antimeridian (Taveuni, Fiji) matches, timed as anywhere else")
    func antimeridian() throws {
        let course = Build.course(
            from: Coordinate(latitude: -16.80, longitude: 179.995), legs: [(80, 1500), (120, 500)])
        #expect(course[1].longitude < 0)  // the course does cross
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: course)))
        let match = try #require(matcher.match(course: course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseDistanceMeters - 2000) < 1e-3)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-3)
        #expect(matcher.evaluate(course: course.reversed()) == .failure(.wrongDirection))
        // Longitudes written past 180° are the same places.
        let unwrapped = course.map {
            Coordinate(latitude: $0.latitude, longitude: $0.longitude < 0 ? $0.longitude + 360 : $0.longitude)
        }
        #expect(matcher.match(course: unwrapped)?.courseTimeSeconds == match.courseTimeSeconds)
    }

    @Test("a course straight over the North Pole matches", arguments: [89.999, 89.9995])
    func overThePole(latitude: Double) throws {
        // From 111 m (or 56 m) short of the pole, due north, over it, 400 m on down the other side.
        let course = Build.course(from: Coordinate(latitude: latitude, longitude: 30), legs: [(0, 400)])
        #expect(abs(course[1].longitude - (-150)) < 1e-6)
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: course, stepMeters: 2)))
        let match = try #require(matcher.match(course: course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseTimeSeconds - 400 / 3) < 1e-3)
        #expect(matcher.match(course: course.reversed()) == nil)
    }

    @Test("a course through the pole itself (latitude 90) matches")
    func throughThePolePoint() throws {
        let course = [
            Coordinate(latitude: 89.9995, longitude: 0), Coordinate(latitude: 90, longitude: 0),
            Coordinate(latitude: 89.9995, longitude: 90),
        ]
        let length = Geodesic.length(of: course)
        let match = try #require(CourseMatcher(run: Build.activity(Build.run(along: course))).match(course: course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseTimeSeconds - length / 3) < 1e-3)
    }

    @Test("a loop 50 m around the South Pole matches in its direction only")
    func aroundTheSouthPole() throws {
        let latitude = -90 + 50 / 111_694.0
        let loop = stride(from: 0.0, through: 360, by: 20).map { Coordinate(latitude: latitude, longitude: $0 - 180) }
        let run = Build.run(along: loop + Array(loop.dropFirst(1).prefix(4)), stepMeters: 2)
        let matcher = CourseMatcher(run: Build.activity(run))
        let match = try #require(matcher.match(course: loop))
        #expect(match.coverage == 1)
        #expect(abs(match.courseTimeSeconds - Geodesic.length(of: loop) / 3) < 1e-3)
        #expect(matcher.match(course: loop.reversed()) == nil)
    }
}
