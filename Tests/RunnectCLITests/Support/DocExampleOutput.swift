import Foundation

/// What a documented command is shown to print, compared with what it printed: a line that is
/// just `…` matches any number of lines (none too), a `…` within a line any text; trailing
/// spaces of each line and blank lines at the end are ignored on both sides.
struct DocExampleOutput {
    static let ellipsis = "…"

    let expected: [String]

    init(_ expected: [String]) {
        self.expected = Self.normalized(expected)
    }

    static func normalized(_ lines: [String]) -> [String] {
        var result = lines.map { line in
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
            return String(line)
        }
        while result.last?.isEmpty == true { result.removeLast() }
        return result
    }

    /// Whether `actual` (the output, split into lines) is what the page shows.
    func matches(_ actual: [String]) -> Bool {
        let actual = Self.normalized(actual)
        // matched[i][j]: expected[i...] matches actual[j...]; filled from the ends.
        var matched = Array(repeating: Array(repeating: false, count: actual.count + 1), count: expected.count + 1)
        matched[expected.count][actual.count] = true
        for i in stride(from: expected.count - 1, through: 0, by: -1) {
            for j in stride(from: actual.count, through: 0, by: -1) {
                if expected[i].trimmingCharacters(in: .whitespaces) == Self.ellipsis {
                    matched[i][j] = matched[i + 1][j] || (j < actual.count && matched[i][j + 1])
                } else {
                    matched[i][j] =
                        j < actual.count && Self.line(expected[i], matches: actual[j]) && matched[i + 1][j + 1]
                }
            }
        }
        return matched[0][0]
    }

    /// One line: the parts between `…` appear in order, the first at the start, the last at the end.
    static func line(_ pattern: String, matches text: String) -> Bool {
        let parts = pattern.components(separatedBy: ellipsis)
        guard parts.count > 1 else { return pattern == text }
        guard text.hasPrefix(parts[0]) else { return false }
        var rest = text.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(parts[parts.count - 1])
    }
}
