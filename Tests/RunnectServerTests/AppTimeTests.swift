import Foundation
import Testing

@testable import RunnectServer

@Suite("Times as the app writes and reads them")
struct AppTimeTests {
    @Test(arguments: [("0:25:13", 1513), ("00:25:13", 1513), ("1:02:03", 3723), ("23:59:59", 86399), ("0:00:00", 0)])
    func appTimesRead(text: String, seconds: Int) throws {
        #expect(try AppTime.seconds(of: text, field: "time") == seconds)
    }

    @Test(arguments: [
        "", "25:13", "0:25:13.5", "0:60:00", "0:00:60", "a:bc:de", "0:2:13", "100:00:00", "-1:00:00", "٠:٢٥:١٣",
    ])
    func otherTextIsNoTime(text: String) {
        #expect(throws: AppTimeError.notATime(field: "time", text: text)) {
            try AppTime.seconds(of: text, field: "time")
        }
    }

    @Test func aDayOrMoreIsRefusedAsTheAppsServerWould() {
        #expect(throws: AppTimeError.dayOrMore(field: "time", text: "24:00:00")) {
            try AppTime.seconds(of: "24:00:00", field: "time")
        }
    }

    @Test func timesAreWrittenWithTwoDigitHours() {
        #expect(AppTime.text(seconds: 1513) == "00:25:13")
        #expect(AppTime.text(seconds: 390.4) == "00:06:30")
        #expect(AppTime.text(seconds: 86399) == "23:59:59")
    }

    @Test func datesAreTheServersLocalTime() {
        let date = Date(timeIntervalSince1970: 1_711_001_045.123456)  // 2024-03-21 06:04:05.123456 UTC
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        #expect(AppTime.recordDate(date, timeZone: seoul) == "2024-03-21 15:04:05.123")
        #expect(AppTime.courseDate(date, timeZone: seoul) == "2024-03-21T15:04:05.123456")
        #expect(AppTime.recordDate(date, timeZone: TimeZone(identifier: "UTC")!).hasPrefix("2024-03-21 06:04:05"))
    }

    @Test func aReportedPaceMustBeARunnersPace() throws {
        // 5 km: 10'00" (2'00"/km) to 2:30:00 (30'00"/km) are runs.
        try AppTimeError.checkPlausible(timeSeconds: 600, courseMeters: 5000)
        try AppTimeError.checkPlausible(timeSeconds: 9000, courseMeters: 5000)
        #expect(throws: AppTimeError.implausiblePace(secondsPerKilometer: 119.8)) {
            try AppTimeError.checkPlausible(timeSeconds: 599, courseMeters: 5000)
        }
        #expect(throws: AppTimeError.self) { try AppTimeError.checkPlausible(timeSeconds: 9001, courseMeters: 5000) }
    }
}
