import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct TimestampTests {
    static let taipei = TimeZone(identifier: "Asia/Taipei")!

    @Test(arguments: [
        ("2026-11-21 09:15:00", "2026-11-21T01:15:00Z"),
        ("2026-11-21T09:15", "2026-11-21T01:15:00Z"),
        ("2026/11/21 9:15", "2026-11-21T01:15:00Z"),
        ("11/21/2026 9:15:00", "2026-11-21T01:15:00Z"),
        ("2026-11-21", "2026-11-20T16:00:00Z"),
        ("2026-11-21T09:15:00Z", "2026-11-21T09:15:00Z"),
        ("2026-11-21T09:15:00+09:00", "2026-11-21T00:15:00Z"),
        ("2026-11-21T09:15:00.250-0500", "2026-11-21T14:15:00Z"),
        ("2024-02-29 23:59:59", "2024-02-29T15:59:59Z"),
    ])
    func readsSheetTimes(text: String, expected: String) {
        #expect(Timestamp.parse(text, timeZone: Self.taipei).map(Timestamp.iso8601) == expected)
    }

    @Test(arguments: ["", "soon", "2026-13-01", "2026-02-30", "2025-02-29", "21.11.26", "2026-11-21 25:00", "12:30"])
    func refusesOtherText(text: String) {
        #expect(Timestamp.parse(text, timeZone: Self.taipei) == nil)
    }

    @Test func handlesDaylightSavingZones() {
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(Timestamp.parse("2026-07-01 12:00", timeZone: newYork).map(Timestamp.iso8601) == "2026-07-01T16:00:00Z")
        #expect(Timestamp.parse("2026-12-01 12:00", timeZone: newYork).map(Timestamp.iso8601) == "2026-12-01T17:00:00Z")
        #expect(Timestamp.display(Date(timeIntervalSince1970: 1_782_921_600), timeZone: newYork) == "2026-07-01 12:00")
    }

    /// The display of a moment is what Foundation's formatter writes, in zones with half-hour,
    /// three-quarter-hour and daylight-saving offsets, from 1970 to 2199.
    @Test func displayMatchesFoundationsFormatter() async {
        let zones = ["Asia/Taipei", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"].map { TimeZone(identifier: $0)! }
        let moments = Generator<(Int, Int), Shrink.None<(Int, Int)>> { rng in
            (Int.random(in: 0...7_258_118_399, using: &rng), Int.random(in: 0..<5, using: &rng))
        }
        await propertyCheck(count: 2000, input: moments) { seconds, zone in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.timeZone = zones[zone]
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(Timestamp.display(date, timeZone: zones[zone]) == formatter.string(from: date), "\(seconds) \(zones[zone].identifier)")
        }
    }

    /// `withDisplay` hands out the UTF-8 of `display`, through the zone or its remembered offsets, for
    /// moments (whole or not) from before year 0 to after 9999.
    @Test func displayBytesAreTheDisplayText() async {
        let zones = ["Asia/Taipei", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"].map { TimeZone(identifier: $0)! }
        let moments = Generator<(Int, Double, Int), Shrink.None<(Int, Double, Int)>> { rng in
            (
                Int.random(in: -70_000_000_000...300_000_000_000, using: &rng), [0, 0.25, 0.999].randomElement(using: &rng)!,
                Int.random(in: 0..<5, using: &rng)
            )
        }
        await propertyCheck(count: 2000, input: moments) { seconds, fraction, zone in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
            var offsets = ZoneOffsets(zones[zone])
            let display = Timestamp.display(date, timeZone: zones[zone])
            #expect(Timestamp.withDisplay(date, timeZone: zones[zone]) { String(decoding: $0, as: UTF8.self) } == display, "\(seconds)")
            #expect(Timestamp.withDisplay(date, offsets: &offsets) { String(decoding: $0, as: UTF8.self) } == display, "\(seconds)")
        }
    }
}
