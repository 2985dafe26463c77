import RunnectKit

extension String {
    /// The text with every control character shown as an escape (`\u{1B}`): what human-readable
    /// output prints of text it does not write itself (titles, names, paths, messages), so that
    /// none can move the cursor, retitle the terminal or forge a line (``ControlCharacters``).
    var forTerminal: String { ControlCharacters.escaped(self) }
}
