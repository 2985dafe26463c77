import Foundation

/// What a course file written for a watch holds: a path to follow, or a run as it was recorded.
public enum ExportKind: String, Sendable, Equatable, CaseIterable {
    /// A path to follow: positions and elevations. TCX and FIT, which need a time at every point,
    /// get times computed at ``ExportOptions/paceSecondsPerKilometer`` along the path.
    case course
    /// A recorded run: every point with its own time, heart rate, cadence and temperature.
    case run
}

/// How ``GPXWriter``, ``TCXWriter`` and ``FITWriter`` write a course or a run.
public struct ExportOptions: Sendable, Equatable {
    /// The pace of a course's computed times when none is given: 6:00 per kilometre, an easy
    /// running pace.
    public static let defaultPaceSecondsPerKilometer = 360.0

    /// A course or a run (see ``ExportKind``).
    public var kind: ExportKind
    /// The file's name for it; `nil` takes the activity's own (``Activity/displayName``), else
    /// "Course" or "Run". Controls and characters XML forbids are removed.
    public var name: String?
    /// A description, written where the format has a place for one; `nil` takes the activity's.
    public var description: String?
    /// The pace at which a course's times advance along the path, seconds per kilometre.
    public var paceSecondsPerKilometer: Double
    /// The time of a course's first point; `nil` for 2000-01-01T00:00:00Z. A course's times say
    /// how long the path takes at its pace, not when it was run, so a fixed default gives the
    /// same bytes for the same course (a recording's own times may lie outside what FIT holds).
    public var startTime: Date?

    /// Options for a course or a run.
    /// - Parameters:
    ///   - kind: A course (the default) or a run.
    ///   - name: The name written; `nil` for the activity's own.
    ///   - description: The description written; `nil` for the activity's own.
    ///   - paceSecondsPerKilometer: The pace of a course's times (default 6:00 per km).
    ///   - startTime: The time of a course's first point; `nil` for 2000-01-01T00:00:00Z.
    public init(
        kind: ExportKind = .course, name: String? = nil, description: String? = nil,
        paceSecondsPerKilometer: Double = ExportOptions.defaultPaceSecondsPerKilometer, startTime: Date? = nil
    ) {
        self.kind = kind
        self.name = name
        self.description = description
        self.paceSecondsPerKilometer = paceSecondsPerKilometer
        self.startTime = startTime
    }

    /// 2000-01-01T00:00:00Z: a course's first time when nothing else gives one.
    static let fallbackStartTime = Date(timeIntervalSince1970: 946_684_800)
}
