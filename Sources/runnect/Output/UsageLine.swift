import ArgumentParser

/// An error of the command line as one line: ArgumentParser's message, and for a usage error the
/// help of the command that was meant (`(see `runnect db add-user --help`)`), never a usage
/// block of several lines.
enum UsageLine {
    /// `message` (its lines joined, a trailing full stop dropped before the pointer) and, for a
    /// usage error (exit 64), where to read the command's help.
    static func text(_ message: String, code: ExitCode, arguments: [String]) -> String {
        var text = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        guard code == .validationFailure else { return text }
        if text.isEmpty { text = "a usage error" }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " (see `\(command(for: arguments)) --help`)"
    }

    /// The command the arguments name: `runnect`, then each subcommand name as long as the
    /// arguments lead with them (`db add-user kim` → `runnect db add-user`).
    static func command(for arguments: [String]) -> String {
        var names = [Runnect._commandName]
        var current: ParsableCommand.Type = Runnect.self
        for argument in arguments {
            // `_commandName`: the name ArgumentParser matches, from the configuration or the type.
            guard
                let next = current.configuration.subcommands.first(where: {
                    $0._commandName == argument || $0.configuration.aliases.contains(argument)
                })
            else { break }
            names.append(argument)
            current = next
        }
        return names.joined(separator: " ")
    }
}
