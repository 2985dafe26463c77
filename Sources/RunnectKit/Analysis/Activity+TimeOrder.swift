extension Activity {
    /// Adds a warning for every step back in time of the course (see ``ActivityStats/elapsedTimeSeconds``
    /// for what the figures make of it), naming the points and their times. The readers call it
    /// once the activity is read.
    mutating func warnAboutTimesGoingBack() {
        warnings += TimeOrder(segments: courseSegments).warnings
    }
}
