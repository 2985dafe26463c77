extension Activity {
    /// Adds a warning for every step back in time of the course, and every jump ahead longer than
    /// any pause can last (see ``ActivityStats/elapsedTimeSeconds`` for what the figures make of
    /// them), naming the points and their times. The readers call it once the activity is read,
    /// its ``deviceTotals`` set.
    mutating func warnAboutTimesGoingBack() {
        warnings += TimeOrder(segments: courseSegments, deviceTotals: deviceTotals).warnings
    }
}
