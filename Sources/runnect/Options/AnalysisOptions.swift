import ArgumentParser
import RunnectKit

/// The analysis thresholds, shared by every command that computes stats.
struct AnalysisOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A leg counts as moving above this speed, m/s (default: 30 min/mile, \(Self.defaultMovingThreshold)).",
            valueName: "m/s"))
    var movingThreshold: Double?

    /// 30 min/mile, m/s, as `--help` shows it.
    static let defaultMovingThreshold = String(
        format: "%.3f", StatsOptions().movingSpeedThresholdMetersPerSecond)

    @Option(
        help: ArgumentHelp(
            "A slower leg still moves while climbing or descending this fast over the window, m/h (0: off).",
            valueName: "m/h"))
    var movingClimbRate: Double = StatsOptions().movingVerticalSpeedThresholdMetersPerHour

    @Option(help: ArgumentHelp("The window of --moving-climb-rate, seconds.", valueName: "s"))
    var movingClimbWindow: Double = StatsOptions().movingVerticalWindowSeconds

    @Option(
        help: ArgumentHelp(
            "The slowest speed along the track over that window, m/s (standing still is not climbing).",
            valueName: "m/s"))
    var movingClimbMinSpeed: Double = StatsOptions().movingVerticalMinimumHorizontalSpeedMetersPerSecond

    @Option(
        help: ArgumentHelp(
            "Elevation changes smaller than this are noise, metres.", valueName: "m"))
    var elevationHysteresis: Double = StatsOptions().elevationHysteresisMeters

    @Option(
        help: ArgumentHelp(
            "An elevation moving faster than this from the last one kept is a spike, m/s (0: keep all).",
            valueName: "m/s"))
    var elevationSpikeRate: Double = StatsOptions().elevationSpikeVerticalSpeedMetersPerSecond

    @Option(
        help: ArgumentHelp("The change allowed on top of --elevation-spike-rate, metres.", valueName: "m"))
    var elevationSpikeSlack: Double = StatsOptions().elevationSpikeSlackMeters

    @Option(help: ArgumentHelp("Split length, metres (default: 1 km, or 1 mile with --units mi).", valueName: "m"))
    var splitDistance: Double?

    func validate() throws {
        if let movingThreshold, !(movingThreshold >= 0 && movingThreshold.isFinite) {
            throw ValidationError("--moving-threshold must be a speed of 0 m/s or more.")
        }
        guard movingClimbRate >= 0, movingClimbRate.isFinite else {
            throw ValidationError("--moving-climb-rate must be a rate of 0 m/h or more.")
        }
        guard movingClimbWindow > 0, movingClimbWindow.isFinite else {
            throw ValidationError("--moving-climb-window must be more than 0 s.")
        }
        guard movingClimbMinSpeed >= 0, movingClimbMinSpeed.isFinite else {
            throw ValidationError("--moving-climb-min-speed must be a speed of 0 m/s or more.")
        }
        guard elevationHysteresis >= 0, elevationHysteresis.isFinite else {
            throw ValidationError("--elevation-hysteresis must be 0 m or more.")
        }
        guard elevationSpikeRate >= 0, elevationSpikeRate.isFinite else {
            throw ValidationError("--elevation-spike-rate must be a speed of 0 m/s or more.")
        }
        guard elevationSpikeSlack >= 0, elevationSpikeSlack.isFinite else {
            throw ValidationError("--elevation-spike-slack must be 0 m or more.")
        }
        if let splitDistance, !(splitDistance > 0 && splitDistance.isFinite) {
            throw ValidationError("--split-distance must be more than 0 m.")
        }
    }

    /// The options given; splits of one `unit` unless --split-distance says otherwise.
    func statsOptions(unit: DistanceUnit) -> StatsOptions {
        var options = StatsOptions()
        if let movingThreshold { options.movingSpeedThresholdMetersPerSecond = movingThreshold }
        options.movingVerticalSpeedThresholdMetersPerHour = movingClimbRate
        options.movingVerticalWindowSeconds = movingClimbWindow
        options.movingVerticalMinimumHorizontalSpeedMetersPerSecond = movingClimbMinSpeed
        options.elevationHysteresisMeters = elevationHysteresis
        options.elevationSpikeVerticalSpeedMetersPerSecond = elevationSpikeRate
        options.elevationSpikeSlackMeters = elevationSpikeSlack
        options.splitDistanceMeters = splitDistance ?? unit.meters
        return options
    }
}
