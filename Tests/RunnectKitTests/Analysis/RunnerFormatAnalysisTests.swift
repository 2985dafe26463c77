import Testing

@testable import RunnectKit

@Suite("Analysis: RunnerFormat")
struct RunnerFormatAnalysisTests {
    @Test("Pace: minutes'seconds\" per km, rounded to the second")
    func pace() {
        #expect(RunnerFormat.pace(secondsPerKilometer: 303) == "5'03\"")
        #expect(RunnerFormat.pace(secondsPerKilometer: 302.6) == "5'03\"")
        #expect(RunnerFormat.pace(secondsPerKilometer: 359.5) == "6'00\"")
        #expect(RunnerFormat.pace(secondsPerKilometer: 3900) == "65'00\"")
        #expect(RunnerFormat.pace(secondsPerKilometer: nil) == "–")
        #expect(RunnerFormat.pace(secondsPerKilometer: .infinity) == "–")
        #expect(RunnerFormat.pace(secondsPerKilometer: -1) == "–")
    }

    @Test("Duration: H:MM:SS")
    func duration() {
        #expect(RunnerFormat.duration(seconds: 3723) == "1:02:03")
        #expect(RunnerFormat.duration(seconds: 3130) == "0:52:10")
        #expect(RunnerFormat.duration(seconds: 59.6) == "0:01:00")
        #expect(RunnerFormat.duration(seconds: 93_600) == "26:00:00")
        #expect(RunnerFormat.duration(seconds: -5) == "-0:00:05")
        #expect(RunnerFormat.duration(seconds: nil) == "–")
    }

    @Test("Kilometres with two decimals")
    func kilometers() {
        #expect(RunnerFormat.kilometers(meters: 10_020) == "10.02 km")
        #expect(RunnerFormat.kilometers(meters: 0) == "0.00 km")
        #expect(RunnerFormat.kilometers(meters: 14_156.762) == "14.16 km")
        #expect(RunnerFormat.kilometers(meters: nil) == "–")
    }
}
