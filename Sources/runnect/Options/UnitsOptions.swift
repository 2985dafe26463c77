import ArgumentParser
import RunnectKit

extension DistanceUnit: ExpressibleByArgument {}

/// `--units km|mi`, taken by the commands that print distances and paces for people.
struct UnitsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Distances and paces for people in km or mi (pace and splits per mile); --json stays metric.",
            valueName: "km|mi"))
    var units: DistanceUnit = .kilometers

    var unit: DistanceUnit { units }
}
