extension Activity {
    /// Several activities of one file (a TCX file with several `<Activity>`s) as one: their
    /// tracks, routes, waypoints and laps in order, the device totals summed, the metadata of the
    /// first (its name, description and creator, else the first another one has), every warning
    /// once.
    ///
    /// Nothing is lost: each activity stays a track of its own, and tracks are never joined.
    /// - Returns: The only activity as it is; an empty activity of `format` when there is none.
    public static func merging(_ activities: [Activity], format: ActivityFormat = .tcx) -> Activity {
        guard let first = activities.first else { return Activity(format: format) }
        if activities.count == 1 { return first }
        var merged = Activity(format: first.format, metadata: first.metadata)
        merged.metadata.name = activities.lazy.compactMap(\.metadata.name).first
        merged.metadata.description = activities.lazy.compactMap(\.metadata.description).first
        merged.metadata.creator = activities.lazy.compactMap(\.metadata.creator).first
        for activity in activities {
            merged.tracks += activity.tracks
            merged.routes += activity.routes
            merged.waypoints += activity.waypoints
            merged.laps += activity.laps
            for warning in activity.warnings where !merged.warnings.contains(warning) {
                merged.warnings.append(warning)
            }
        }
        merged.deviceTotals = DeviceTotals.summing(activities.compactMap(\.deviceTotals))
        return merged
    }
}
