#if Server
    import ArgumentParser
    import Foundation
    import Logging
    import RunnectServer
    import RunnectStore

    extension Runnect {
        /// `runnect serve`: the Runnect app's HTTP API over the store, until SIGTERM or SIGINT.
        struct Serve: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Serve the Runnect app's HTTP API (under /api) over the course store.",
                discussion: """
                    Standard output carries one line, `listening on http://HOST:PORT`, once the \
                    socket listens; the log (one line per request) goes to standard error. SIGTERM \
                    or SIGINT lets requests in flight finish (8 s at most), then exits 0.

                    Every option has an environment variable; the option wins:
                      --db                 RUNNECT_DB
                      --host               RUNNECT_HOST
                      --port               RUNNECT_PORT
                      --token-secret-file  RUNNECT_TOKEN_SECRET_FILE
                      --images             RUNNECT_IMAGES
                      --public-url         RUNNECT_PUBLIC_URL
                      --oidc               RUNNECT_OIDC (specs separated by spaces)
                      --kakao-app-id       RUNNECT_KAKAO_APP_ID
                      --kakao-api          RUNNECT_KAKAO_API
                      --marathon-courses   RUNNECT_MARATHON_COURSES
                      --writes-per-minute  RUNNECT_WRITES_PER_MINUTE
                      --sign-ins-per-minute RUNNECT_SIGN_INS_PER_MINUTE
                      --courses-per-runner RUNNECT_COURSES_PER_RUNNER
                      --image-megabytes-per-runner RUNNECT_IMAGE_MEGABYTES_PER_RUNNER
                      --max-running        RUNNECT_MAX_RUNNING
                      --max-queued         RUNNECT_MAX_QUEUED
                    The tokens' secret is the file's bytes (less one trailing newline), else the \
                    value of RUNNECT_TOKEN_SECRET; at least 32 bytes (`openssl rand -base64 48`).
                    """,
                subcommands: [Token.self])

            @OptionGroup var options: ServeOptions

            func validate() throws {
                if let port = try settings().port, !(0...65535).contains(port) {
                    throw ValidationError("--port must be 0 to 65535, not \(port)")
                }
            }

            func run() async throws {
                let settings = try settings()
                let secret: TokenSecret
                do {
                    secret = try settings.tokenSecret()
                } catch let error as TokenSecretError {
                    throw ValidationError("\(error)")
                }
                let location = settings.db ?? CourseStore.defaultPath()
                let configuration = try settings.configuration(secret: secret, store: location)
                LoggingSystem.bootstrap(StreamLogHandler.standardError)
                var logger = Logger(label: "runnect")
                logger.logLevel = .info
                let named = settings.db != nil
                try await StoreRefusal.reported {
                    let store = try await StoreOptions.open(
                        location, user: nil, creating: named ? .inExistingFolder : .withFolders, role: "--db",
                        durability: .powerLoss, reconnectSeconds: ServerConfiguration.storeReconnectSeconds)
                    store.warnings.onWarning { Diagnostics.warning($0.description) }
                    let server = RunnectServer(
                        store: store,
                        configuration: configuration,
                        logger: logger)
                    try await server.run { listening in
                        FileHandle.standardOutput.write(Data("listening on \(listening.url)\n".utf8))
                    }
                }
            }

            /// The options, each else its environment variable.
            func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServeSettings {
                try ServeSettings(options, environment: environment)
            }
        }
    }
#endif
