import Testing

@testable import RunnectKit

/// Distances and paces in kilometres or miles (`runnect --units`).
@Suite("Analysis: RunnerFormat in miles")
struct RunnerFormatUnitsTests {
    @Test("A distance in km or mi, two decimals; missing values as –")
    func distance() {
        #expect(RunnerFormat.distance(meters: 10_020, in: .kilometers) == "10.02 km")
        #expect(RunnerFormat.distance(meters: 10_020, in: .kilometers) == RunnerFormat.kilometers(meters: 10_020))
        #expect(RunnerFormat.distance(meters: 42_195, in: .miles) == "26.22 mi")  // a marathon
        #expect(RunnerFormat.distance(meters: 1609.344, in: .miles) == "1.00 mi")
        #expect(RunnerFormat.distance(meters: nil, in: .miles) == "–")
        #expect(RunnerFormat.distance(meters: .nan, in: .miles) == "–")
    }

    @Test("A pace per mile is the pace per km times 1.609344, rounded to the second")
    func pace() {
        #expect(RunnerFormat.pace(secondsPerKilometer: 300, per: .kilometers) == "5'00\"")
        #expect(RunnerFormat.pace(secondsPerKilometer: 300, per: .miles) == "8'03\"")  // 482.8 s
        #expect(RunnerFormat.pace(secondsPerKilometer: 343.57, per: .miles) == "9'13\"")  // 552.9 s
        #expect(RunnerFormat.pace(secondsPerKilometer: nil, per: .miles) == "–")
        #expect(RunnerFormat.pace(secondsPerKilometer: -1, per: .miles) == "–")
        #expect(DistanceUnit(rawValue: "mi") == .miles && DistanceUnit.miles.symbol == "mi")
    }
}
