import Foundation

/// The figures of one lap of a run as TCX and FIT write them: a lap is one segment of the
/// ``ExportPlan`` (the stretch between two pauses of the recording), measured by Runnect.
struct RunLapFigures {
    /// Times of the lap's first and last points.
    let start: Date
    let end: Date
    /// Geodesic length of the lap, metres.
    let meters: Double
    /// Time the timer ran: start to end, less the run's timer pauses within.
    let timerSeconds: Double
    let averageHeartRate: Double?
    let maximumHeartRate: Double?
    let averageCadence: Double?
    let maximumCadence: Double?
    let ascentMeters: Double?
    let descentMeters: Double?

    /// The figures of segment `segment` of a measured run plan.
    init(plan: ExportPlan, segment index: Int) {
        let segment = plan.segments[index]
        let measurement = segment.measurement!
        start = segment.points.first!.time!
        end = max(segment.points.last!.time!, start)
        meters = measurement.distanceMeters
        var paused = 0.0
        for pause in plan.pauses where pause.end > start && pause.start < end {
            paused += min(pause.end, end).timeIntervalSince(max(pause.start, start))
        }
        timerSeconds = max(end.timeIntervalSince(start) - paused, 0)
        averageHeartRate = measurement.heartRate.mean
        maximumHeartRate = measurement.heartRate.max
        averageCadence = measurement.cadence.mean
        maximumCadence = measurement.cadence.max
        ascentMeters = measurement.hasElevation ? measurement.elevationGainMeters : nil
        descentMeters = measurement.hasElevation ? measurement.elevationLossMeters : nil
    }
}
