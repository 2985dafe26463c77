import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Runnect app's whole day against `runnect serve`, over HTTP: sign-in with Apple (an ID
/// token PyJWT signed, its key set in a file) and Kakao (a stand-in for Kakao's API), nickname,
/// drawing with map images, lists, sharing, the feed and search, scraps, records, stamps,
/// the ranking, bulk deletes and withdrawal; every answer decoded as the app's types decode it
/// (``AppDTO``), the HTTP and body statuses checked.
@Suite(
    "The app's whole day over HTTP",
    .requires(IDTokenKeys.isAvailable, "python3 with pyjwt and cryptography (scripts/setup.sh --test)"),
    .requires(MapImageSamples.isAvailable, "python3 with pillow (scripts/setup.sh --test)"))
struct AppDayTests {
    @Test(arguments: ServerStoreKind.available)
    func theAppsWholeDay(kind: ServerStoreKind) async throws {
        try await kind.withStore { store, folder in
            let kakaoUsers: [String: KakaoStandIn.User] = ["kakao-b": .init(id: 4_242_424_242, appID: 1234, email: nil)]
            try await KakaoStandIn.with(users: kakaoUsers) { kakao in
                let apple = try OIDCProvider(
                    parsing: "APPLE=https://appleid.apple.com,kr.runnect.app,\(IDTokenKeys.folder.path)/jwks.json")
                let configuration = ServerConfiguration(
                    tokenSecret: TestServer.secret, oidcProviders: [apple],
                    kakao: KakaoSignIn(appID: 1234, baseURL: kakao),
                    imagesFolder: folder.appendingPathComponent("images").path, marathonCourses: [1],
                    timeZone: TimeZone(identifier: "Asia/Seoul")!)
                try await TestServer.with(store: store, configuration: configuration) { base in
                    try await AppDay(visitor: AppClient(base: base), images: folder.appendingPathComponent("images"))
                        .run()
                }
            }
        }
    }

    @Test(.postgresCases) func postgresCasesRan() {}
}

/// The day's steps, in the order a runner's app takes them.
struct AppDay {
    let visitor: AppClient
    let images: URL

    static let appleIssuer = "https://appleid.apple.com"

    func appleToken(subject: String) throws -> String {
        let now = Date().timeIntervalSince1970
        let claims: [String: Any] = [
            "iss": Self.appleIssuer, "aud": "kr.runnect.app", "sub": subject, "exp": now + 600, "iat": now,
            "email": "a@example.com", "email_verified": true,
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
        return try IDTokenKeys.sign(key: "rsa1", alg: "RS256", kid: "rsa1", claims: text)
    }

    func signIn(_ token: String, _ provider: String, expect bodyStatus: Int) async throws -> AppClient {
        let answer = try await visitor.request("POST", "/api/auth", json: ["token": token, "provider": provider])
        answer.expect(http: 200, body: bodyStatus)
        let data = try #require(try answer.envelope(AppDTO.SignIn.self).data)
        #expect(data.type == (bodyStatus == 201 ? "Signup" : "Login"))
        if bodyStatus == 201 { #expect(data.nickname?.hasPrefix("임시") == true) }
        return visitor.signedIn(access: data.accessToken, refresh: data.refreshToken)
    }

    /// A drawn course's body: a square-ish loop near Seoul Station of about `kilometres`.
    static func drawing(title: String, seed: Double, address: String = "서울 중구 회현동 1") -> [String: Any] {
        let lat = 37.55 + seed * 0.01
        let lon = 126.97
        return [
            "path": [
                ["latitude": lat, "longitude": lon], ["latitude": lat + 0.005, "longitude": lon],
                ["latitude": lat + 0.005, "longitude": lon + 0.006], ["latitude": lat, "longitude": lon + 0.006],
            ],
            "title": title, "distance": 2.0, "departureAddress": address, "departureName": "서울역",
        ]
    }

    func run() async throws {
        let jpeg = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("with-gps.jpg"))
        let png = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("plain.png"))

        // A visitor looks around: the feed, but nothing of anyone's own.
        let empty = try await visitor.request("GET", "/api/public-course?pageNo=1&sort=date")
        empty.expect(http: 200)
        #expect(try empty.envelope(AppDTO.PickedMapList.self).data?.isEnd == true)
        try await visitor.request("GET", "/api/user").expect(http: 401)
        try await visitor.request("POST", "/api/scrap", json: ["publicCourseId": 1, "scrapTF": true]).expect(http: 401)
        try await visitor.request("GET", "/api/user", authenticated: false).expect(http: 400)

        // Sign-up with Apple, then a sign-in: the first refresh token stops working.
        let first = try await signIn(try appleToken(subject: "001.apple.a"), "APPLE", expect: 201)
        var a = try await signIn(try appleToken(subject: "001.apple.a"), "APPLE", expect: 200)
        try await first.request("GET", "/api/auth/getNewToken").expect(http: 401)
        let refreshed = try await a.request("GET", "/api/auth/getNewToken")
        refreshed.expect(http: 200, body: 201)
        let pair = try #require(try refreshed.envelope(AppDTO.NewToken.self).data)
        #expect(pair.refreshToken == a.refreshToken)
        a = a.signedIn(access: pair.accessToken, refresh: pair.refreshToken)
        try await visitor.request("POST", "/api/auth", json: ["token": "x", "provider": "NAVER"]).expect(http: 400)
        try await visitor.request("POST", "/api/auth", json: ["token": "nobody", "provider": "KAKAO"]).expect(http: 401)
        try await visitor.request("POST", "/api/auth", json: ["token": "x", "provider": "GOOGLE"]).expect(http: 401)

        // Kakao: runner B.
        let b = try await signIn("kakao-b", "KAKAO", expect: 201)

        // Nicknames: unique, one's own kept.
        try await a.request("PATCH", "/api/user", json: ["nickname": "러너에이"]).expect(http: 200)
        try await b.request("PATCH", "/api/user", json: ["nickname": "러너에이"]).expect(http: 409)
        try await a.request("PATCH", "/api/user", json: ["nickname": "러너에이"]).expect(http: 200)
        try await b.request("PATCH", "/api/user", json: ["nickname": "비러너"]).expect(http: 200)
        try await b.request("PATCH", "/api/user", json: ["nickname": ""]).expect(http: 400)
        let myPage = try #require(try await a.request("GET", "/api/user").envelope(AppDTO.MyPage.self).data)
        #expect(myPage.user.nickname == "러너에이" && myPage.user.latestStamp == "CSPR0" && myPage.user.level == 1)

        // Two courses drawn with map images.
        let han = try await a.drawCourse(
            data: Self.drawing(title: "반포 한강 달빛 코스", seed: 0, address: "서울 서초구 반포동 115-5"), image: jpeg)
        han.expect(http: 201)
        let hanID = try #require(try han.envelope(AppDTO.CourseCreated.self).data?.id)
        let namsan = try await a.drawCourse(data: Self.drawing(title: "Namsan morning loop", seed: 1), image: png)
        namsan.expect(http: 201)
        let namsanID = try #require(try namsan.envelope(AppDTO.CourseCreated.self).data?.id)
        #expect(hanID == 1)

        // What the app cannot send, refused with a 4xx and nothing stored.
        var onePoint = Self.drawing(title: "one", seed: 2)
        onePoint["path"] = [["latitude": 37.5, "longitude": 127.0]]
        try await a.drawCourse(data: onePoint, image: jpeg).expect(http: 400)
        try await a.drawCourse(data: Self.drawing(title: String(repeating: "가", count: 41), seed: 2), image: jpeg)
            .expect(http: 400)
        try await a.drawCourse(data: Self.drawing(title: "short address", seed: 2, address: "서울 용산구"), image: jpeg)
            .expect(http: 400)
        try await a.drawCourse(data: Self.drawing(title: "not an image", seed: 2), image: Data("GIF89a".utf8))
            .expect(http: 400)
        try await a.request("POST", "/api/course", json: Self.drawing(title: "json only", seed: 2)).expect(http: 400)
        try await a.request(
            "POST", "/api/course",
            body: Data(
                "--x\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n{\"path\": [NaN]}\r\n--x--\r\n".utf8),
            contentType: "multipart/form-data; boundary=x"
        ).expect(http: 400)

        // My courses, all and not yet shared; a course's page with its path.
        let mine = try #require(
            try await a.request("GET", "/api/course/user").envelope(AppDTO.PrivateCourses.self).data)
        #expect(mine.courses.map(\.id) == [namsanID, hanID])
        #expect(mine.courses[1].departure.region == "서울" && mine.courses[1].departure.detail == "115-5")
        let unshared = try #require(
            try await a.request("GET", "/api/course/private/user").envelope(AppDTO.PrivateCourses.self).data)
        #expect(unshared.courses.count == 2)
        let detail = try #require(
            try await a.request("GET", "/api/course/detail/\(hanID)").envelope(AppDTO.CourseDetail.self).data?.course)
        #expect(detail.isNowUser == true)
        #expect(detail.path?.first == [37.55, 126.97] && detail.path?.count == 4)
        try await b.request("GET", "/api/course/detail/\(hanID)").expect(http: 400)

        // The uploaded JPEG is served without sign-in, its GPS tags gone.
        let imageURL = try #require(URL(string: detail.image))
        let (imageData, imageResponse) = try await URLSession.shared.data(from: imageURL)
        #expect((imageResponse as? HTTPURLResponse)?.statusCode == 200)
        let served = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-served-\(UUID()).jpg")
        try imageData.write(to: served)
        defer { try? FileManager.default.removeItem(at: served) }
        let tags = try MapImageSamples.read(served)
        #expect((tags["gps"] as? [Any])?.isEmpty ?? true)

        // Rename; another runner cannot.
        try await a.request("PATCH", "/api/course/\(hanID)", json: ["title": "반포 한강 달빛 런"]).expect(http: 200)
        try await b.request("PATCH", "/api/course/\(hanID)", json: ["title": "mine now"]).expect(http: 400)

        // Share: once; not another's.
        try await a.request(
            "POST", "/api/public-course", json: ["courseId": hanID, "title": "반포 한강 달빛 런", "description": "야경이 좋은 코스"]
        ).expect(http: 201)
        try await a.request(
            "POST", "/api/public-course", json: ["courseId": hanID, "title": "again", "description": "x"]
        )
        .expect(http: 409)
        try await b.request(
            "POST", "/api/public-course", json: ["courseId": namsanID, "title": "x", "description": "x"]
        )
        .expect(http: 400)

        // Ten more, shared: two pages of the feed, and the stamps for drawing and sharing.
        for index in 0..<10 {
            let drawn = try await a.drawCourse(
                data: Self.drawing(title: "동네 코스 \(index)", seed: Double(3 + index)), image: png)
            let id = try #require(try drawn.envelope(AppDTO.CourseCreated.self).data?.id)
            try await a.request(
                "POST", "/api/public-course", json: ["courseId": id, "title": "동네 코스 \(index)", "description": "매일"]
            )
            .expect(http: 201)
        }
        let page1 = try #require(
            try await visitor.request("GET", "/api/public-course?pageNo=1&sort=date").envelope(
                AppDTO.PickedMapList.self
            ).data)
        #expect(page1.publicCourses.count == 10 && page1.totalPageSize == 2 && page1.isEnd == false)
        let page2 = try #require(
            try await visitor.request("GET", "/api/public-course?pageNo=2").envelope(AppDTO.PickedMapList.self).data)
        #expect(page2.publicCourses.map(\.id) == [hanID] && page2.isEnd == true)
        try await visitor.request("GET", "/api/public-course?pageNo=0").expect(http: 400)
        try await visitor.request("GET", "/api/public-course?sort=name").expect(http: 400)
        let count = try await visitor.request("GET", "/api/public-course/total-page-count")
        #expect(try count.envelope(AppDTO.TotalPageCount.self).data?.totalPageCount == 2)

        // Search: a Korean 2-syllable word, 초성, English (none private).
        for (keyword, expected) in [("한강", hanID), ("ㅂㅍ", hanID), ("달빛", hanID)] {
            let query = keyword.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
            let found = try #require(
                try await visitor.request("GET", "/api/public-course/search?keyword=\(query)")
                    .envelope(AppDTO.PickedMapList.self).data)
            #expect(found.publicCourses.map(\.id) == [expected], "\(keyword)")
        }
        let english = try #require(
            try await visitor.request("GET", "/api/public-course/search?keyword=namsan").envelope(
                AppDTO.PickedMapList.self
            ).data)
        #expect(english.publicCourses.isEmpty)  // Namsan is private
        try await visitor.request("GET", "/api/public-course/search").expect(http: 400)
        let marathon = try #require(
            try await visitor.request("GET", "/api/public-course/marathon").envelope(AppDTO.Marathon.self).data)
        #expect(marathon.marathonPublicCourses.map(\.id) == [hanID])

        // A shared course's page, as a visitor sees it.
        let shared = try #require(
            try await visitor.request("GET", "/api/public-course/detail/\(hanID)").envelope(
                AppDTO.UploadedCourseDetail.self
            ).data)
        #expect(shared.user.nickname == "러너에이" && shared.publicCourse.description == "야경이 좋은 코스")
        #expect(shared.publicCourse.departure.town == "반포동")
        try await visitor.request("GET", "/api/public-course/detail/\(namsanID)").expect(http: 400)

        // Scraps: the toggle and its counts.
        let scrapped = try await b.request("POST", "/api/scrap", json: ["publicCourseId": hanID, "scrapTF": true])
        scrapped.expect(http: 200, body: 201)
        #expect(try scrapped.envelope(AppDTO.ScrapCount.self).data?.scrapCount == 1)
        let unscrapped = try await b.request("POST", "/api/scrap", json: ["publicCourseId": hanID, "scrapTF": false])
        unscrapped.expect(http: 200, body: 200)
        #expect(try unscrapped.envelope(AppDTO.ScrapCount.self).data?.scrapCount == 0)
        try await b.request("POST", "/api/scrap", json: ["publicCourseId": hanID, "scrapTF": true]).expect(
            http: 200, body: 201)
        try await b.request("POST", "/api/scrap", json: ["publicCourseId": namsanID, "scrapTF": true]).expect(http: 400)
        let byScraps = try #require(
            try await b.request("GET", "/api/public-course?sort=scrap").envelope(AppDTO.PickedMapList.self).data)
        #expect(byScraps.publicCourses.first?.id == hanID && byScraps.publicCourses.first?.scrap == true)
        let scraps = try #require(try await b.request("GET", "/api/scrap/user").envelope(AppDTO.Scraps.self).data)
        #expect(scraps.scraps.map(\.publicCourseId) == [hanID])

        // Another runner's profile.
        let aID = try #require(shared.user.id as Int?)
        let profile = try #require(try await b.request("GET", "/api/user/\(aID)").envelope(AppDTO.Profile.self).data)
        #expect(profile.courses.count == 11 && profile.courses.contains { $0.courseId == hanID && $0.scrapTF })

        // Records the app timed: stored as reported, refused when impossible.
        let kilometres = Double(try #require(detail.distance))
        let seconds = Int(kilometres * 360)
        let time = String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        try await b.request(
            "POST", "/api/record",
            json: ["courseId": hanID, "publicCourseId": hanID, "title": "아침 러닝", "time": time, "pace": "0:06:00"]
        ).expect(http: 201)
        try await b.request(
            "POST", "/api/record", json: ["courseId": hanID, "title": "too fast", "time": "0:00:30", "pace": "0:00:10"]
        )
        .expect(http: 400)
        try await b.request(
            "POST", "/api/record", json: ["courseId": hanID, "title": "a day", "time": "24:00:00", "pace": "9:00:00"]
        )
        .expect(http: 400)
        try await b.request(
            "POST", "/api/record", json: ["courseId": namsanID, "title": "private", "time": time, "pace": "0:06:00"]
        )
        .expect(http: 400)
        let slower = seconds + 120
        try await a.request(
            "POST", "/api/record",
            json: [
                "courseId": hanID, "title": "내 코스",
                "time": String(format: "%d:%02d:%02d", slower / 3600, slower / 60 % 60, slower % 60),
                "pace": "0:06:30",
            ]
        ).expect(http: 201)
        let records = try #require(
            try await b.request("GET", "/api/record/user").envelope(AppDTO.ActivityRecords.self).data)
        let record = try #require(records.records.first)
        #expect(records.records.count == 1 && record.publicCourseId == hanID && record.courseId == hanID)
        #expect(record.time.count == 8 && record.time.hasPrefix("00:") && record.pace == "00:06:00")
        #expect(record.createdAt.count == 23 && record.createdAt.dropFirst(4).hasPrefix("-"))
        #expect(record.departure.region == "서울" && abs(record.distance - kilometres) < 0.001)
        try await b.request("PATCH", "/api/record/\(record.id)", json: ["title": "저녁 러닝"]).expect(http: 200)

        // The ranking: B first, both reported.
        let ranking = try #require(
            try await a.request("GET", "/api/course/\(hanID)/ranking?limit=10").envelope(AppDTO.Ranking.self).data)
        #expect(ranking.totalCount == 2 && ranking.entries.map(\.nickname) == ["비러너", "러너에이"])
        #expect(ranking.entries.allSatisfy { !$0.measured } && ranking.entries[0].recordId == record.id)
        let me = try #require(
            try await a.request("GET", "/api/course/\(hanID)/ranking/me").envelope(AppDTO.MyRanking.self).data)
        #expect(me.hasRecord && me.rank == 2)
        try await a.request("GET", "/api/course/\(namsanID)/ranking").expect(http: 400)

        // Stamps: 12 drawn (c1, c2), 11 shared (u1, u2), a run (r1): level 2 and a quarter.
        let stamps = try #require(try await a.request("GET", "/api/stamp/user").envelope(AppDTO.Stamps.self).data)
        #expect(Set(stamps.stamps.map(\.id)) == ["c1", "c2", "u1", "u2", "r1"])
        let page = try #require(try await a.request("GET", "/api/user").envelope(AppDTO.MyPage.self).data)
        #expect(page.user.level == 2 && page.user.levelPercent == 25 && page.user.latestStamp == "r1")

        // Nobody where they don't belong.
        try await b.request("PATCH", "/api/public-course/\(hanID)", json: ["title": "x", "description": "y"]).expect(
            http: 403)
        try await b.request("PUT", "/api/public-course", json: ["publicCourseIdList": [hanID]]).expect(http: 403)
        try await b.request("PUT", "/api/course", json: ["courseIdList": [namsanID]]).expect(http: 400)
        let aRecord = try #require(
            try await a.request("GET", "/api/record/user").envelope(AppDTO.ActivityRecords.self).data?.records.first?.id
        )
        try await b.request("PUT", "/api/record", json: ["recordIdList": [aRecord]]).expect(http: 400)
        try await b.request("PATCH", "/api/record/\(aRecord)", json: ["title": "x"]).expect(http: 400)
        try await tokenForgeries(a)

        // Bulk deletes: a record, an upload (its scraps go), a course.
        try await b.request("PUT", "/api/record", json: ["recordIdList": [record.id]]).expect(http: 200)
        try await a.request("PATCH", "/api/public-course/\(hanID)", json: ["title": "반포 야경", "description": "밤에"])
            .expect(http: 200)
        try await a.request("PUT", "/api/public-course", json: ["publicCourseIdList": [hanID]]).expect(http: 200)
        #expect(try await b.request("GET", "/api/scrap/user").envelope(AppDTO.Scraps.self).data?.scraps.isEmpty == true)
        try await a.request("PUT", "/api/course", json: ["courseIdList": [namsanID]]).expect(http: 200)
        let left = try #require(
            try await a.request("GET", "/api/course/user").envelope(AppDTO.PrivateCourses.self).data)
        #expect(left.courses.count == 11 && !left.courses.contains { $0.id == namsanID })

        // Withdrawal: private courses go, shared ones stay under the placeholder user.
        let withdrawn = try await a.request("DELETE", "/api/user")
        withdrawn.expect(http: 200)
        #expect(try withdrawn.envelope(AppDTO.DeletedUser.self).data?.deletedUserId == aID)
        let orphan = try #require(
            try await visitor.request("GET", "/api/public-course?pageNo=1").envelope(AppDTO.PickedMapList.self).data?
                .publicCourses.first)
        let orphanPage = try #require(
            try await b.request("GET", "/api/public-course/detail/\(orphan.id)").envelope(
                AppDTO.UploadedCourseDetail.self
            ).data)
        #expect(orphanPage.user.id == -1 && orphanPage.user.nickname == "알 수 없음")
        try await a.request("GET", "/api/user").expect(http: 404)
        try await a.request("GET", "/api/auth/getNewToken").expect(http: 401)
        try await b.request("GET", "/api/course/detail/\(hanID)").expect(http: 400)
        // Signing in again makes a new runner.
        _ = try await signIn(try appleToken(subject: "001.apple.a"), "APPLE", expect: 201)
    }

    /// A course imported from a file has no uploaded image: its image is a preview drawn from its
    /// path, a PNG; a preview name the server did not make is 404.
    func previewOfAnImportedCourse(store: CourseStore) async throws {
        let runner = try await store.runner(named: PostgresCluster.uniqueRoleName("cli_runner"))
        let cli = try store.acting(as: runner.name)
        let course = try await cli.importFile(path: PackageFolder.url("SampleTracks/banpo_hangang_night_run.gpx").path)
        _ = try await cli.upload(id: course.id, title: "반포 야간 10K", description: "파일에서 가져온 코스")
        let page = try #require(
            try await visitor.request("GET", "/api/public-course/detail/\(course.id)")
                .envelope(AppDTO.UploadedCourseDetail.self).data)
        #expect(abs(Double(page.publicCourse.distance ?? 0) - course.stats.distanceMeters / 1000) < 0.001)
        let url = try #require(URL(string: page.publicCourse.image))
        #expect(url.lastPathComponent.hasPrefix("p\(course.id)-"))
        for _ in 0..<2 {  // drawn, then read back as kept
            let (data, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/png")
            #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] && data.count > 1000)
        }
        let forged = url.deletingLastPathComponent().appendingPathComponent(
            "p\(course.id)-\(String(repeating: "0", count: 32)).png")
        let (_, refused) = try await URLSession.shared.data(from: forged)
        #expect((refused as? HTTPURLResponse)?.statusCode == 404)
    }

    /// Tokens that are not this server's valid access tokens: 401 every one.
    func tokenForgeries(_ runner: AppClient) async throws {
        let now = Int64(Date().timeIntervalSince1970)
        let real = try ServerTokens(secret: TestServer.secret).verify(runner.accessToken, as: .access)
        let id = String(real.runnerID)
        let other = try TokenSecret(bytes: Array(repeating: 7, count: 32), source: "other")
        func signed(_ claims: ServerTokens.Claims, key: [UInt8] = TestServer.secret.bytes) throws -> String {
            try JSONWebToken.signedHS256(claims: claims, key: key)
        }
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(
            Array(#"{"sub":"access_token","userId":"\#(id)","iat":\#(now),"exp":\#(now + 600)}"#.utf8))
        let forged = [
            try signed(.init(sub: "access_token", userId: id, iat: now, exp: now + 600), key: other.bytes),
            try signed(.init(sub: "access_token", userId: id, iat: now - 7200, exp: now - 10)),
            "\(header).\(payload).",
            runner.refreshToken,
            runner.accessToken.replacingOccurrences(of: ".", with: ".x", options: [], range: nil),
            "not a token",
        ]
        for token in forged {
            try await runner.signedIn(access: token, refresh: runner.refreshToken).request("GET", "/api/user")
                .expect(http: 401)
        }
        // An edited userId (the payload changed, the signature kept).
        let parts = runner.accessToken.split(separator: ".").map(String.init)
        let edited = Base64URL.encode(
            Array(#"{"sub":"access_token","userId":"\#(real.runnerID + 1)","iat":\#(now),"exp":\#(now + 600)}"#.utf8))
        try await runner.signedIn(access: "\(parts[0]).\(edited).\(parts[2])", refresh: runner.refreshToken)
            .request("GET", "/api/user").expect(http: 401)
        // An expired access token with its refresh token gets a new one.
        let expired = try signed(.init(sub: "access_token", userId: id, iat: now - 7200, exp: now - 10))
        try await runner.signedIn(access: expired, refresh: runner.refreshToken).request("GET", "/api/auth/getNewToken")
            .expect(http: 200, body: 201)
    }
}
