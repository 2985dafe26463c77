/// The best chains found so far of an alignment of course points with run positions that only
/// moves forward on the run: for each run position, the best chain that ends at or before it.
///
/// A chain starts at the course's start, at one of the start's passes, and takes course points
/// in order, each at a run position no earlier than the one before. Its value is the course
/// length it covers, then, among equal lengths, the later start pass (so a warm-up that crosses
/// the start is not timed). Only chains that no other chain beats (earlier or equal position and
/// at least the value) are kept: sorted by position, their values strictly increase, so the best
/// chain at or before a position is the last one kept at or before it.
struct ChainFrontier {
    /// What a chain has achieved: covered course length (in ``CoursePath`` units) and the start
    /// pass it began from (an index into the start's candidates, in run order).
    struct Value: Comparable {
        var covered: Int64
        var start: Int

        static func < (lhs: Value, rhs: Value) -> Bool {
            lhs.covered < rhs.covered || (lhs.covered == rhs.covered && lhs.start < rhs.start)
        }
    }

    private var positions: [IndexedRun.Position] = []
    private var values: [Value] = []

    /// The best value of all chains.
    var best: Value? { values.last }

    /// The best chain ending at or before `position`.
    func best(atOrBefore position: IndexedRun.Position) -> Value? {
        let index = firstIndex(after: position)
        return index > 0 ? values[index - 1] : nil
    }

    /// Adds a chain ending at `position`, unless one kept already beats it; drops those it beats.
    mutating func insert(_ value: Value, at position: IndexedRun.Position) {
        let index = firstIndex(after: position)
        if index > 0 && values[index - 1] >= value { return }
        var end = index
        while end < values.count && values[end] <= value { end += 1 }
        // An equal position just before is beaten (its value is lower, or we returned above).
        let start = index > 0 && positions[index - 1] == position ? index - 1 : index
        positions.replaceSubrange(start..<end, with: CollectionOfOne(position))
        values.replaceSubrange(start..<end, with: CollectionOfOne(value))
    }

    /// The index of the first chain whose position is after `position`.
    private func firstIndex(after position: IndexedRun.Position) -> Int {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
