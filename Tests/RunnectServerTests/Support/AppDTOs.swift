import Foundation

/// The Runnect iOS app's response types (API §6, `iOS:Network/Dto/**`): the same keys, types and
/// optionality, so that an answer decoding here decodes in the app.
enum AppDTO {
    struct SignIn: Decodable {
        var type: String
        var accessToken: String
        var refreshToken: String
        var nickname: String?
        var email: String?
    }

    struct NewToken: Decodable {
        var accessToken: String
        var refreshToken: String
    }

    struct MyPage: Decodable {
        struct User: Decodable {
            var email: String
            var nickname: String
            var latestStamp: String
            var level: Int
            var levelPercent: Int
        }
        var user: User
    }

    struct Departure: Decodable {
        var region: String
        var city: String
        var town: String?
        var detail: String?
        var name: String?
    }

    struct ProfileDeparture: Decodable {
        var region: String
        var city: String
        var town: String
        var detail: String?
        var name: String?
    }

    struct Profile: Decodable {
        struct User: Decodable {
            var userId: Int
            var nickname: String?
            var latestStamp: String?
            var level: Int?
            var levelPercent: Int?
        }
        struct Course: Decodable {
            var publicCourseId: Int
            var courseId: Int
            var title: String
            var image: String
            var departure: ProfileDeparture
            var scrapTF: Bool
        }
        var user: User
        var courses: [Course]
    }

    struct CourseCreated: Decodable {
        var id: Int
        var createdAt: String
    }

    struct PrivateCourse: Decodable {
        var id: Int
        var title: String
        var image: String
        var createdAt: String
        var departure: Departure
        var isNowUser: Bool?
        var distance: Float?
        var path: [[Double]]?
    }

    struct PrivateCourses: Decodable { var courses: [PrivateCourse] }
    struct CourseDetail: Decodable { var course: PrivateCourse }

    struct PublicCourse: Decodable {
        var id: Int
        var courseId: Int
        var title: String
        var image: String
        var departure: Departure
        var scrap: Bool?
        var scrapCount: Int?
        var description: String?
        var distance: Float?
    }

    struct PickedMapList: Decodable {
        var totalPageSize: Int?
        var isEnd: Bool?
        var publicCourses: [PublicCourse]
    }

    struct TotalPageCount: Decodable { var totalPageCount: Int }

    struct Marathon: Decodable { var marathonPublicCourses: [PublicCourse] }

    struct UploadedCourseDetail: Decodable {
        struct User: Decodable {
            var id: Int
            var nickname: String
            var level: Int
            var image: String
            var isNowUser: Bool?
        }
        var user: User
        var publicCourse: PublicCourse
    }

    struct MyUploadedCourses: Decodable {
        struct User: Decodable { var id: Int }
        var user: User
        var publicCourses: [PublicCourse]
    }

    struct ActivityRecord: Decodable {
        var id: Int
        var courseId: Int
        var publicCourseId: Int?
        var title: String
        var image: String
        var createdAt: String
        var distance: Double
        var time: String
        var pace: String
        var departure: Departure
    }

    struct ActivityRecords: Decodable { var records: [ActivityRecord] }

    struct Scrap: Decodable {
        var id: Int
        var publicCourseId: Int
        var courseId: Int
        var title: String
        var image: String
        var departure: Departure
    }

    struct Scraps: Decodable { var scraps: [Scrap] }
    struct ScrapCount: Decodable { var scrapCount: Int }

    struct Stamps: Decodable {
        struct Stamp: Decodable { var id: String }
        var stamps: [Stamp]
    }

    struct DeletedUser: Decodable { var deletedUserId: Int }

    /// The ranking (API §8; the app's server's shape, which the app does not call yet).
    struct Ranking: Decodable {
        struct Entry: Decodable {
            var rank: Int
            var userId: Int
            var nickname: String
            var recordId: Int
            var time: String
            var pace: String
            var measured: Bool
        }
        var totalCount: Int
        var entries: [Entry]
    }

    struct MyRanking: Decodable {
        var hasRecord: Bool
        var rank: Int?
        var userId: Int
        var recordId: Int?
        var time: String?
        var measured: Bool?
    }
}
