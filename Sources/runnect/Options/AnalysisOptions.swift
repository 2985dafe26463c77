import ArgumentParser
import RunnectKit

/// The analysis thresholds, shared by every command that computes stats.
struct AnalysisOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A leg counts as moving above this speed, m/s (default: 30 min/mile).", valueName: "m/s"))
    var movingThreshold: Double = StatsOptions().movingSpeedThresholdMetersPerSecond

    @Option(
        help: ArgumentHelp(
            "Elevation changes smaller than this are noise, metres.", valueName: "m"))
    var elevationHysteresis: Double = StatsOptions().elevationHysteresisMeters

    @Option(help: ArgumentHelp("Split length, metres.", valueName: "m"))
    var splitDistance: Double = StatsOptions().splitDistanceMeters

    func validate() throws {
        guard movingThreshold >= 0, movingThreshold.isFinite else {
            throw ValidationError("--moving-threshold must be a speed of 0 m/s or more.")
        }
        guard elevationHysteresis >= 0, elevationHysteresis.isFinite else {
            throw ValidationError("--elevation-hysteresis must be 0 m or more.")
        }
        guard splitDistance > 0, splitDistance.isFinite else {
            throw ValidationError("--split-distance must be more than 0 m.")
        }
    }

    var statsOptions: StatsOptions {
        var options = StatsOptions()
        options.movingSpeedThresholdMetersPerSecond = movingThreshold
        options.elevationHysteresisMeters = elevationHysteresis
        options.splitDistanceMeters = splitDistance
        return options
    }
}
