extension Activity {
    /// Distance, time, pace, elevation and the rest of the activity's figures.
    ///
    /// Measured on ``courseSegments``: the track segments, or the routes of a planned course
    /// without a track, with the ``timerPauses`` and the ``deviceTotals``' time (which bounds a
    /// step forward in time). See ``ActivityStats`` for the rule behind each figure.
    /// - Parameter options: Thresholds, split length, and whether to add splits and per-segment
    ///   figures.
    /// - Returns: The stats; figures the file has no data for are `nil`.
    /// - Complexity: O(n + k) for n points and k splits.
    public func stats(options: StatsOptions = .init()) -> ActivityStats {
        ActivityStats(segments: courseSegments, timerPauses: timerPauses, deviceTotals: deviceTotals, options: options)
    }
}
