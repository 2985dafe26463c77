#if Server
    import ArgumentParser
    import Foundation
    import RunnectServer

    /// `runnect serve`'s settings: each option, else its `RUNNECT_*` variable (an empty variable
    /// counts as unset).
    struct ServeSettings {
        var db: String?
        var host: String?
        var port: Int?
        var tokenSecretFile: String?
        /// `RUNNECT_TOKEN_SECRET`: the secret itself, when no file is named.
        var tokenSecretValue: String?

        init(
            db: String?, host: String?, port: Int?, tokenSecretFile: String?, environment: [String: String]
        ) throws {
            func variable(_ name: String) -> String? {
                guard let value = environment[name], !value.isEmpty else { return nil }
                return value
            }
            self.db = db ?? variable("RUNNECT_DB")
            self.host = host ?? variable("RUNNECT_HOST")
            if let port {
                self.port = port
            } else if let text = variable("RUNNECT_PORT") {
                guard let value = Int(text) else {
                    throw ValidationError("RUNNECT_PORT must be a port number, not \(text)")
                }
                self.port = value
            }
            self.tokenSecretFile = tokenSecretFile ?? variable("RUNNECT_TOKEN_SECRET_FILE")
            self.tokenSecretValue = variable("RUNNECT_TOKEN_SECRET")
        }

        /// The secret from the file, else from `RUNNECT_TOKEN_SECRET`.
        func tokenSecret() throws -> TokenSecret {
            if let tokenSecretFile { return try TokenSecret(file: tokenSecretFile) }
            if let tokenSecretValue {
                return try TokenSecret(bytes: Array(tokenSecretValue.utf8), source: "RUNNECT_TOKEN_SECRET")
            }
            throw TokenSecretError.missing
        }
    }
#endif
