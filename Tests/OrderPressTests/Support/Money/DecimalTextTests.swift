import CJemalloc
import Foundation
import PropertyBased
import Testing

@testable import OrderPress

@Suite struct DecimalTextTests {
    @Test(arguments: [
        ("35", "35"), ("35.50", "35.5"), ("-5", "-5"), ("0.000001", "0.000001"), ("1e-05", "0.00001"), (".5", "0.5"),
    ])
    func parsesPlainDecimals(text: String, expected: String) {
        #expect(DecimalText.parse(text).map(DecimalText.exact) == expected)
    }

    @Test(arguments: ["", "12abc", "1,200", "$1", "1.2.3", "--1", "1e", "e5", " 1", "NaN", "Infinity"])
    func refusesAnythingElse(text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test(arguments: [
        ("2.345", 2, "2.35"), ("2.344", 2, "2.34"), ("964.5", 0, "965"), ("2.8", 2, "2.80"), ("432", 0, "432"),
        ("0.0005", 3, "0.001"), ("1", 3, "1.000"), ("10.25", 2, "10.25"),
    ])
    func roundsHalfUpToFixedDigits(value: String, digits: Int, expected: String) {
        #expect(DecimalText.fixed(Decimal(string: value)!, digits: digits) == expected)
    }

    /// The fast path (no rounding when not needed, no split) gives Foundation's rounding, split and
    /// padded, for generated values of every shape (more in `MoneyFormatTests`).
    @Test func fixedMatchesRoundingSplittingAndPadding() async {
        for input in [MoneyFormatTests.amounts, Self.anyShape] {
            await propertyCheck(count: 2000, input: input) { value, digits in
                #expect(DecimalText.fixed(value, digits: digits) == MoneyFormatTests.foundationText(value, digits), "\(value) \(digits)")
            }
        }
    }

    /// Values of every shape the integer fast path has to tell apart: significands that fit 64 bits
    /// and ones that don't (products such as amount × rate), trailing zeros kept in the significand,
    /// both signs, exponents from -24 to 12; with 0 to 6 fraction digits asked for.
    static let anyShape = Generator<(Decimal, Int), Shrink.None<(Decimal, Int)>> { rng in
        var significand = Decimal(UInt64.random(in: 0...UInt64.max >> Int.random(in: 0...63, using: &rng), using: &rng))
        if Int.random(in: 0..<4, using: &rng) == 0 { significand *= Decimal(UInt64.random(in: 1...UInt64.max, using: &rng)) }
        if Bool.random(using: &rng) { significand *= 1000 }
        let value = Decimal(
            sign: Bool.random(using: &rng) ? .minus : .plus, exponent: Int.random(in: -24...12, using: &rng),
            significand: significand)
        return (value, Int.random(in: 0...6, using: &rng))
    }

    /// The exact text is Foundation's `description`, fast path or not.
    @Test func exactMatchesFoundationsDescription() async {
        await propertyCheck(count: 3000, input: Self.anyShape) { value, _ in
            #expect(DecimalText.exact(value) == value.description, "\(value)")
        }
    }

    @Test(arguments: [
        ("-2.345", 2, "-2.35"), ("-0.001", 2, "0.00"), ("0.005", 2, "0.01"), ("18446744073709551615", 0, "18446744073709551615"),
        ("18446744073709551616", 1, "18446744073709551616.0"), ("123456789012345678901234567890.125", 2, "123456789012345678901234567890.13"),
    ])
    func roundsSignsAndHugeValues(value: String, digits: Int, expected: String) {
        #expect(DecimalText.fixed(Decimal(string: value)!, digits: digits) == expected)
    }

    /// The UTF-8 handed out by `withExact`, `withFixed` and `withInteger` is the text of `exact`,
    /// `fixed` and `String(_:)`, for values of every shape and integers of every size.
    @Test func byteWritersWriteTheirTexts() async {
        await propertyCheck(count: 3000, input: Self.anyShape) { value, digits in
            #expect(DecimalText.withExact(value) { String(decoding: $0, as: UTF8.self) } == DecimalText.exact(value), "\(value)")
            #expect(
                DecimalText.withFixed(value, digits: digits) { String(decoding: $0, as: UTF8.self) } == DecimalText.fixed(value, digits: digits),
                "\(value) \(digits)")
        }
        let integers = Generator<Int, Shrink.None<Int>> { rng in
            [Int.min, Int.max, 0, -1, Int.random(in: -999...999, using: &rng), Int.random(in: .min ... .max, using: &rng)]
                .randomElement(using: &rng)!
        }
        await propertyCheck(count: 1000, input: integers) { value in
            #expect(DecimalText.withInteger(value) { String(decoding: $0, as: UTF8.self) } == String(value))
        }
    }
}

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

@Suite struct TextTests {
    @Test(arguments: [
        ("  Amy  ", "Amy"), ("Kevin \t\n Lin", "Kevin Lin"), ("e\u{301}", "\u{E9}"), ("", ""), ("a\u{3000}b", "a b"),
        ("plain", "plain"),
    ])
    func normalises(raw: String, expected: String) {
        #expect(Text.normalize(raw) == expected)
    }

    @Test func shortensWithAnEllipsis() {
        #expect(Text.shortened("abcdef", to: 4) == "abc…")
        #expect(Text.shortened("abcd", to: 4) == "abcd")
    }
}

@Suite struct HeapTests {
    final class Witness: @unchecked Sendable {
        let freed: DispatchSemaphore
        let freedOn: UnsafeMutablePointer<pthread_t>
        init(_ freed: DispatchSemaphore, _ freedOn: UnsafeMutablePointer<pthread_t>) { (self.freed, self.freedOn) = (freed, freedOn) }
        deinit {
            freedOn.pointee = pthread_self()
            freed.signal()
        }
    }

    /// What `Heap.release` is given is freed, on another thread than the caller's.
    @Test func releaseFreesOnAnotherThread() {
        let freed = DispatchSemaphore(value: 0)
        let freedOn = UnsafeMutablePointer<pthread_t>.allocate(capacity: 1)
        defer { freedOn.deallocate() }
        freedOn.initialize(to: pthread_self())
        Heap.release([Witness(freed, freedOn)])
        #expect(freed.wait(timeout: .now() + 60) == .success)
        #expect(pthread_equal(freedOn.pointee, pthread_self()) == 0)
    }

    /// jemalloc is the process's allocator: what Swift allocates is counted in jemalloc's own
    /// statistics for the thread, and its arenas can be purged.
    @Test func jemallocAllocatesForSwift() throws {
        func allocated() -> UInt64 {
            var value: UInt64 = 0
            var size = MemoryLayout<UInt64>.size
            #expect(mallctl("thread.allocated", &value, &size, nil, 0) == 0)
            return value
        }
        let before = allocated()
        let bytes = [UInt8](repeating: 7, count: 1 << 20)
        let after = allocated()
        withExtendedLifetime(bytes) {}
        #expect(after - before >= 1 << 20)
        #expect(Heap.purgeAllArenas())
    }

    /// The resident size that decides whether to give pages back is this process's: 64 MB touched are in it,
    /// and it is what the kernel reports as resident (`VmRSS`), not the far larger virtual size. Bounds
    /// rather than a difference: other tests allocate and free on other threads meanwhile.
    @Test func residentBytesCountTouchedMemory() throws {
        let size = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 1, count: size)
        func kernelResident() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ")[1])) * 1024
        }
        let low = try kernelResident()
        let resident = try #require(Heap.residentBytes())
        let high = try kernelResident()
        #expect(resident >= size)
        let slack = 16 << 20
        #expect(resident >= min(low, high) - slack && resident <= max(low, high) + slack, "\(resident) against \(low)–\(high)")
    }
}

extension DecimalTextTests {
    /// Reading a `Decimal`'s bytes gives Foundation's sign, significand and exponent, for values of
    /// every shape and for NaN; and the layout check that guards it holds on this Foundation.
    @Test func decimalBytesReadAsFoundationReadsThem() async {
        #expect(DecimalText.Scaled.layoutHolds)
        await propertyCheck(count: 3000, input: Self.anyShape) { value, _ in
            for value in [value, -value, value / 7, value * Decimal(string: "32.125")!] {
                let raw = DecimalText.Scaled.parts(of: value)
                let foundation = DecimalText.Scaled.partsThroughFoundation(of: value)
                #expect(raw?.negative == foundation?.negative && raw?.units == foundation?.units && raw?.exponent == foundation?.exponent, "\(value)")
            }
        }
        #expect(DecimalText.Scaled.parts(of: .nan) == nil)
    }
}
