#if Server
    import ArgumentParser
    import Foundation
    import RunnectServer
    import RunnectStore

    extension Runnect.Serve {
        /// `runnect serve token NAME`: a runner's tokens, as a sign-in would give them.
        struct Token: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print a runner's access and refresh tokens as one JSON line.",
                discussion: """
                    For scripts, tests and a club's first administrator: the runner named NAME \
                    (made as a sign-in makes one when there is none yet) gets a new pair, signed \
                    with the server's secret (--token-secret-file, RUNNECT_TOKEN_SECRET_FILE or \
                    RUNNECT_TOKEN_SECRET) in the store of --db (RUNNECT_DB). It replaces the runner's refresh token: the one issued \
                    before stops working.
                    """)

            @Argument(help: "The runner's name (on PostgreSQL, their role).")
            var name: String

            /// `serve`'s options (`--db`, `--token-secret-file`), given before or after `token`.
            @ParentCommand var serve: Runnect.Serve

            func run() async throws {
                let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
                let secret: TokenSecret
                do {
                    secret = try ServeSettings.tokenSecret(
                        file: serve.options.tokenSecretFile ?? environment["RUNNECT_TOKEN_SECRET_FILE"],
                        value: environment["RUNNECT_TOKEN_SECRET"])
                } catch let error as TokenSecretError {
                    throw ValidationError("\(error)")
                }
                let location = serve.options.db ?? environment["RUNNECT_DB"] ?? CourseStore.defaultPath()
                try await StoreRefusal.reported {
                    let store = try await StoreOptions.open(location, user: nil, creating: .never, role: "--db")
                    let pair = try await TokenPair.issue(forRunnerNamed: name, secret: secret, store: store)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    FileHandle.standardOutput.write(try encoder.encode(pair) + Data("\n".utf8))
                }
            }
        }
    }
#endif
