import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new role's password: the first line of standard input, or asked twice on the terminal
/// without echo (`db add-user`, `db init --server-role`).
enum PasswordInput {
    static func read(for role: String, fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("--password-stdin: standard input holds no password line.")
            }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError(
                "No terminal to ask a password on: pass --password-stdin (and the password as one line) or --no-password."
            )
        }
        let first = prompt("Password for \(role): ")
        guard !first.isEmpty else { throw ValidationError("An empty password: pass --no-password for none.") }
        guard prompt("Again: ") == first else {
            throw ValidationError("The two passwords differ; nothing was done.")
        }
        return first
    }

    /// Reads a line from the terminal without echoing it.
    private static func prompt(_ text: String) -> String {
        guard let pointer = getpass(text) else { return "" }
        defer { memset(pointer, 0, strlen(pointer)) }
        return String(cString: pointer)
    }
}
