#if Server
    import ArgumentParser

    /// The options of `runnect serve` (each has a `RUNNECT_*` variable; the option wins).
    struct ServeOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "The course database: a SQLite file (made if missing, in an existing folder), or postgresql://… (default: $RUNNECT_DB, else the default store).",
                valueName: "path|url"))
        var db: String?

        @Option(help: ArgumentHelp("The address to listen on (default: 127.0.0.1).", valueName: "address"))
        var host: String?

        @Option(help: ArgumentHelp("The port; 0 takes a free one (default: 8080).", valueName: "port"))
        var port: Int?

        @Option(help: ArgumentHelp("A file holding the tokens' secret.", valueName: "file"))
        var tokenSecretFile: String?

        @Option(
            help: ArgumentHelp(
                "The folder of map images (default: NAME-images beside a SQLite store; needed with PostgreSQL).",
                valueName: "dir"))
        var images: String?

        @Option(
            name: .customLong("public-url"),
            help: ArgumentHelp(
                "The server's address as the app reaches it (behind a proxy), for image URLs.", valueName: "url"))
        var publicURL: String?

        @Option(
            help: ArgumentHelp(
                "An OpenID Connect sign-in: PROVIDER=ISSUER[|ISSUER…],AUDIENCE[|AUDIENCE…],JWKS (a file or an https URL); repeatable.",
                valueName: "spec"))
        var oidc: [String] = []

        @Option(
            name: .customLong("kakao-app-id"),
            help: ArgumentHelp("This server's Kakao app id (Kakao sign-in).", valueName: "id"))
        var kakaoAppID: String?

        @Option(
            name: .customLong("kakao-api"),
            help: ArgumentHelp("Kakao's API base address (tests: a stand-in).", valueName: "url"))
        var kakaoAPI: String?

        @Option(
            name: .customLong("marathon-courses"),
            help: ArgumentHelp("Shared course ids listed as marathon courses, separated by commas.", valueName: "ids"))
        var marathonCourses: String?

        @Option(
            name: .customLong("writes-per-minute"),
            help: ArgumentHelp("The changes a runner may make a minute; 0 for no limit (default: 120).", valueName: "n")
        )
        var writesPerMinute: Int?

        @Option(
            name: .customLong("sign-ins-per-minute"),
            help: ArgumentHelp(
                "The sign-in attempts a client address may make a minute; 0 for no limit (default: 20).", valueName: "n"
            ))
        var signInsPerMinute: Int?

        @Option(
            name: .customLong("courses-per-runner"),
            help: ArgumentHelp("The courses a runner may keep; 0 for no limit (default: 10000).", valueName: "n"))
        var coursesPerRunner: Int?

        @Option(
            name: .customLong("image-megabytes-per-runner"),
            help: ArgumentHelp(
                "The MiB of map images a runner may keep; 0 for no limit (default: 256).", valueName: "n"))
        var imageMegabytesPerRunner: Int?

        @Option(
            name: .customLong("max-running"),
            help: ArgumentHelp("Requests answered at once; more wait in the queue (default: 128).", valueName: "n"))
        var maxRunning: Int?

        @Option(
            name: .customLong("max-queued"),
            help: ArgumentHelp(
                "Requests waiting at most (2 s each at most); more get 503 with Retry-After (default: 256).",
                valueName: "n"))
        var maxQueued: Int?
    }
#endif
