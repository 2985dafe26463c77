#if Server
    import ArgumentParser
    import Foundation
    import RunnectServer
    import RunnectStore

    /// `runnect serve`'s settings: each option, else its `RUNNECT_*` environment variable.
    struct ServeSettings {
        var db: String?
        var host: String?
        var port: Int?
        var tokenSecretFile: String?
        var tokenSecretValue: String?
        var images: String?
        var publicURL: String?
        var oidc: [String]
        var kakaoAppID: Int64?
        var kakaoAPI: String?
        var marathonCourses: [Int64]
        var writesPerMinute: Int?
        var signInsPerMinute: Int?
        var coursesPerRunner: Int?
        var imageMegabytesPerRunner: Int?
        var maxRunning: Int?
        var maxQueued: Int?

        init(_ options: ServeOptions, environment: [String: String]) throws {
            func variable(_ name: String) -> String? {
                guard let value = environment[name], !value.isEmpty else { return nil }
                return value
            }
            db = options.db ?? variable("RUNNECT_DB")
            host = options.host ?? variable("RUNNECT_HOST")
            if let port = options.port {
                self.port = port
            } else if let text = variable("RUNNECT_PORT") {
                guard let value = Int(text) else {
                    throw ValidationError("RUNNECT_PORT must be a port number, not \(text)")
                }
                port = value
            }
            tokenSecretFile = options.tokenSecretFile ?? variable("RUNNECT_TOKEN_SECRET_FILE")
            tokenSecretValue = variable("RUNNECT_TOKEN_SECRET")
            images = options.images ?? variable("RUNNECT_IMAGES")
            publicURL = options.publicURL ?? variable("RUNNECT_PUBLIC_URL")
            oidc =
                options.oidc.isEmpty
                ? (variable("RUNNECT_OIDC").map { $0.split(separator: " ").map(String.init) } ?? []) : options.oidc
            let appID = options.kakaoAppID ?? variable("RUNNECT_KAKAO_APP_ID")
            if let appID {
                guard let value = Int64(appID), value > 0 else {
                    throw ValidationError("--kakao-app-id must be Kakao's numeric app id, not \(appID)")
                }
                kakaoAppID = value
            }
            kakaoAPI = options.kakaoAPI ?? variable("RUNNECT_KAKAO_API")
            func count(_ value: Int?, _ name: String, _ flag: String) throws -> Int? {
                if let value {
                    guard value >= 0 else { throw ValidationError("\(flag) must be 0 or more, not \(value)") }
                    return value
                }
                guard let text = variable(name) else { return nil }
                guard let parsed = Int(text), parsed >= 0 else {
                    throw ValidationError("\(name) must be a whole number, 0 or more, not \(text)")
                }
                return parsed
            }
            writesPerMinute = try count(options.writesPerMinute, "RUNNECT_WRITES_PER_MINUTE", "--writes-per-minute")
            signInsPerMinute = try count(
                options.signInsPerMinute, "RUNNECT_SIGN_INS_PER_MINUTE", "--sign-ins-per-minute")
            coursesPerRunner = try count(options.coursesPerRunner, "RUNNECT_COURSES_PER_RUNNER", "--courses-per-runner")
            imageMegabytesPerRunner = try count(
                options.imageMegabytesPerRunner, "RUNNECT_IMAGE_MEGABYTES_PER_RUNNER", "--image-megabytes-per-runner")
            maxRunning = try count(options.maxRunning, "RUNNECT_MAX_RUNNING", "--max-running")
            maxQueued = try count(options.maxQueued, "RUNNECT_MAX_QUEUED", "--max-queued")
            if maxRunning == 0 { throw ValidationError("--max-running must be 1 or more") }
            let marathon = options.marathonCourses ?? variable("RUNNECT_MARATHON_COURSES") ?? ""
            marathonCourses = try marathon.split(separator: ",").map {
                guard let id = Int64($0.trimmingCharacters(in: .whitespaces)), id > 0 else {
                    throw ValidationError(
                        "--marathon-courses takes shared course ids separated by commas, not \(marathon)")
                }
                return id
            }
        }

        func tokenSecret() throws -> TokenSecret {
            try Self.tokenSecret(file: tokenSecretFile, value: tokenSecretValue)
        }

        /// The secret in `file`, else the value of `RUNNECT_TOKEN_SECRET`.
        static func tokenSecret(file: String?, value: String?) throws -> TokenSecret {
            if let file { return try TokenSecret(file: file) }
            if let value { return try TokenSecret(bytes: Array(value.utf8), source: "RUNNECT_TOKEN_SECRET") }
            throw TokenSecretError.missing
        }

        /// The images folder: as given, else beside a SQLite store (`NAME-images`); a PostgreSQL
        /// store needs one given.
        func imagesFolder(store location: String) throws -> String {
            if let images { return images }
            guard !location.hasPrefix("postgresql://"), !location.hasPrefix("postgres://") else {
                throw ValidationError(
                    "with a PostgreSQL store, pass --images DIR (or RUNNECT_IMAGES): where map images are kept")
            }
            return (location as NSString).deletingPathExtension + "-images"
        }

        /// The server's configuration of these settings.
        func configuration(secret: TokenSecret, store location: String) throws -> ServerConfiguration {
            let providers: [OIDCProvider]
            do {
                providers = try oidc.map(OIDCProvider.init(parsing:))
            } catch let error as OIDCProviderError {
                throw ValidationError("\(error)")
            }
            var kakao: KakaoSignIn?
            if let kakaoAppID {
                var base = KakaoSignIn.defaultBaseURL
                if let kakaoAPI {
                    guard let url = URL(string: kakaoAPI), url.scheme == "https" || url.scheme == "http" else {
                        throw ValidationError("--kakao-api must be an http(s) URL, not \(kakaoAPI)")
                    }
                    base = url
                }
                kakao = KakaoSignIn(appID: kakaoAppID, baseURL: base)
            }
            if let publicURL {
                guard let url = URL(string: publicURL), url.scheme == "https" || url.scheme == "http", url.host != nil
                else { throw ValidationError("--public-url must be an http(s) URL, not \(publicURL)") }
            }
            return ServerConfiguration(
                host: host ?? "127.0.0.1", port: port ?? 8080, tokenSecret: secret, oidcProviders: providers,
                kakao: kakao, imagesFolder: try imagesFolder(store: location), publicURL: publicURL,
                marathonCourses: marathonCourses, writesPerMinute: writesPerMinute ?? 120,
                signInsPerMinute: signInsPerMinute ?? 20, coursesPerRunner: coursesPerRunner ?? 10_000,
                imageBytesPerRunner: Int64(imageMegabytesPerRunner ?? 256) * 1_048_576,
                maximumRunning: maxRunning ?? 128, maximumQueued: maxQueued ?? 256)
        }
    }
#endif
