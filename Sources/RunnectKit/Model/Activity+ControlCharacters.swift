extension Activity {
    /// The activity with the control characters of its text replaced, as
    /// ``ControlCharacters/replacing(in:keepingLineBreaks:)`` says: names, types and the creator
    /// become one line; the description keeps its line breaks. What readers return, so that no
    /// text read from a file can move a terminal's cursor or forge a line of output.
    public func replacingControlCharacters() -> Activity {
        func line(_ text: String?) -> String? { text.map { ControlCharacters.replacing(in: $0) } }
        var copy = self
        copy.metadata.name = line(metadata.name)
        copy.metadata.description = metadata.description.map {
            ControlCharacters.replacing(in: $0, keepingLineBreaks: true)
        }
        copy.metadata.creator = line(metadata.creator)
        for index in copy.tracks.indices {
            copy.tracks[index].name = line(tracks[index].name)
            copy.tracks[index].type = line(tracks[index].type)
        }
        for index in copy.routes.indices { copy.routes[index].name = line(routes[index].name) }
        for index in copy.waypoints.indices { copy.waypoints[index].name = line(waypoints[index].name) }
        return copy
    }
}
