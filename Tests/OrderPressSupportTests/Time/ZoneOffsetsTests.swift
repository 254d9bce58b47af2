import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `ZoneOffsets` remembers a zone's offsets by the hour, and `Timestamp.parse(_:offsets:)` reads every
/// order's time through it: both answer exactly what the zone itself (and the parser before them) answers,
/// around every transition, including those at a half hour (St John's, Lord Howe) or at odd minutes.
@Suite struct ZoneOffsetsTests {
    static let zoneNames = [
        "America/St_Johns", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "America/New_York", "Europe/London",
        "Africa/Casablanca", "America/Sao_Paulo", "Asia/Taipei", "UTC",
    ]

    /// Each zone with the instants of its transitions from 1890 to 2120 (seconds since 1970).
    static let zones: [(zone: TimeZone, transitions: [Int])] = zoneNames.map { name in
        let zone = TimeZone(identifier: name)!
        var transitions: [Int] = []
        var date = Date(timeIntervalSince1970: -2_524_521_600)  // 1890
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 4_733_510_400 {  // 2120
            transitions.append(Int(next.timeIntervalSince1970))
            date = next
        }
        return (zone, transitions)
    }

    /// A zone and instants in it, most within two hours of one of its transitions (so that hours beside and
    /// across a transition are asked, remembered and asked again), some anywhere from 1800 to 2300.
    static let instants = Generator<(Int, [Int]), Shrink.None<(Int, [Int])>> { rng in
        let zone = Int.random(in: 0..<zones.count, using: &rng)
        let transitions = zones[zone].transitions
        let instants = (0..<Int.random(in: 1...60, using: &rng)).map { _ -> Int in
            if transitions.isEmpty || Int.random(in: 0..<5, using: &rng) == 0 {
                return Int.random(in: -5_364_662_400...10_413_792_000, using: &rng)
            }
            // Often on the very second of a transition, or one before it.
            let transition = transitions.randomElement(using: &rng)!
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return transition + Int.random(in: -1...0, using: &rng)
            default: return transition + Int.random(in: -7200...7200, using: &rng)
            }
        }
        return (zone, instants)
    }

    @Test func theZonesHaveTransitionsInsideAnHour() {
        // Otherwise the property below would not reach the hours that must not be remembered.
        let insideAnHour = Self.zones.flatMap(\.transitions).filter { $0 % 3600 != 0 }
        #expect(insideAnHour.count > 100)
    }

    @Test func offsetsAreTheZones() async {
        await propertyCheck(count: 400, input: Self.instants) { zoneIndex, instants in
            let zone = Self.zones[zoneIndex].zone
            var offsets = ZoneOffsets(zone)
            for instant in instants {
                let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
                #expect(offsets.secondsFromGMT(at: instant) == expected, "\(zone.identifier) at \(instant)")
            }
        }
    }

    /// Pieces of timestamps: digits of every length, the separators a sheet writes, zones, and what
    /// no timestamp holds (other digits, marks, odd spaces).
    static let pieces = [
        "2026", "1", "12", "31", "07", "9", "60", "123456789", "1234567890", "0", "-", "/", " ", "T", ":", ".", "Z", "z", "+08:00", "-0330",
        "+05", "+5", "-", "+", "\u{3000}", "\u{A0}", "\t", "年", "\u{FF10}", "\u{663}", "e\u{301}", "\u{200B}", "😀",
    ]

    /// A text near a transition of a zone, as a sheet writes it, or a jumble of pieces.
    static let texts = Generator<(Int, [String]), Shrink.None<(Int, [String])>> { rng in
        let zone = Int.random(in: 0..<zones.count, using: &rng)
        let transitions = zones[zone].transitions
        let texts = (0..<Int.random(in: 1...40, using: &rng)).map { _ -> String in
            if Bool.random(using: &rng), let transition = transitions.randomElement(using: &rng) {
                // The wall time around a transition, read in any zone offset: in a gap, twice in an overlap.
                let local = transition + Int.random(in: -10_800...10_800, using: &rng)
                let date = Date(timeIntervalSince1970: TimeInterval(local))
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let forms = [
                    String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!),
                    String(format: "%d/%d/%04d %d:%02d", c.month!, c.day!, c.year!, c.hour!, c.minute!),
                    String(format: "%04d/%02d/%02dT%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!),
                    String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!),
                ]
                return forms.randomElement(using: &rng)!
            }
            return (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        }
        return (zone, texts)
    }

    @Test func parsingThroughTheOffsetsReadsAsBefore() async {
        await propertyCheck(count: 400, input: Self.texts) { zoneIndex, texts in
            let zone = Self.zones[zoneIndex].zone
            var offsets = ZoneOffsets(zone)
            for text in texts {
                // Words (年, a letter, a full-width digit) and plain numbers (Sheets serials) are read by rules
                // the reference never had (`TimestampWordsTests`); through the offsets they read as without.
                let words = text.unicodeScalars.contains { (scalar: Unicode.Scalar) -> Bool in
                    !scalar.isASCII || (scalar.properties.isAlphabetic && !"TtZz".unicodeScalars.contains(scalar))
                }
                let serial = text.unicodeScalars.allSatisfy { (scalar: Unicode.Scalar) -> Bool in "0123456789.".unicodeScalars.contains(scalar) }
                let before = words || serial ? Timestamp.read(text, order: .mdy, timeZone: zone).date : ReferenceTimestamp.parse(text, timeZone: zone)
                // The reference reads slashed dates month-first: so does `date_order = "mdy"` (without an order, a
                // date whose first two numbers are both 12 or less is unsettled, `LocaleValuesTests`).
                #expect(Timestamp.read(text, order: .mdy, timeZone: zone).date == before, "\(zone.identifier): \(text.unicodeScalars.map(\.value))")
                #expect(Timestamp.read(text, order: .mdy, offsets: &offsets).date == before, "\(zone.identifier): \(text.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test(arguments: [
        // New York's spring gap: 02:30 does not exist; read with the offset after the gap (EDT), it is 01:30 EST.
        ("America/New_York", "2026-03-08 02:30", "2026-03-08T06:30:00Z"),
        // Its autumn overlap: 01:30 happens twice; read as the first (EDT).
        ("America/New_York", "2026-11-01 01:30", "2026-11-01T05:30:00Z"),
        // St John's moves at 02:00 local, 05:30 UTC: in the middle of a UTC hour.
        ("America/St_Johns", "2026-03-08 01:59:59", "2026-03-08T05:29:59Z"),
        ("America/St_Johns", "2026-03-08 03:00", "2026-03-08T05:30:00Z"),
        ("Asia/Taipei", "2026-11-21 09:15", "2026-11-21T01:15:00Z"),
    ])
    func wallTimesAroundTransitions(zone: String, text: String, utc: String) {
        var offsets = ZoneOffsets(TimeZone(identifier: zone)!)
        let date = Timestamp.parse(text, offsets: &offsets)
        #expect(date.map(Timestamp.iso8601) == utc)
        #expect(date == Timestamp.parse(text, timeZone: TimeZone(identifier: zone)!))
    }
}

/// `Timestamp.parse` as it was before `ZoneOffsets` and the fields kept in place: what the new one must
/// answer for every text.
private enum ReferenceTimestamp {
    static func parse(_ raw: String, timeZone: TimeZone) -> Date? {
        let bytes = Array(raw.utf8)
        var fields: [Int] = []
        var current = -1
        var digits = 0
        var zoneOffset: Int?
        var firstFieldDigits = 0
        var index = 0
        func flush() {
            if current >= 0 {
                if fields.isEmpty { firstFieldDigits = digits }
                fields.append(current)
            }
            current = -1
            digits = 0
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 9 else { return nil }
                current = max(current, 0) * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                guard index == bytes.count - 1, fields.count >= 4 else { return nil }
                flush()
                zoneOffset = 0
            case UInt8(ascii: "+") where fields.count >= 4, UInt8(ascii: "-") where fields.count >= 4:
                flush()
                let sign = byte == UInt8(ascii: "-") ? -1 : 1
                let rest = bytes[(index + 1)...].filter { $0 != UInt8(ascii: ":") }
                guard rest.count == 2 || rest.count == 4, rest.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
                let numbers = rest.map { Int($0 - 48) }
                let hours = numbers[0] * 10 + numbers[1]
                let minutes = rest.count == 4 ? numbers[2] * 10 + numbers[3] : 0
                zoneOffset = sign * (hours * 3600 + minutes * 60)
                index = bytes.count
                continue
            default:
                flush()
            }
            index += 1
        }
        flush()
        guard fields.count == 3 || fields.count >= 5 else { return nil }
        var year: Int, month: Int, day: Int
        if firstFieldDigits == 4 {
            (year, month, day) = (fields[0], fields[1], fields[2])
        } else if fields[2] >= 1000 {
            (month, day, year) = (fields[0], fields[1], fields[2])
        } else {
            return nil
        }
        let hour = fields.count > 3 ? fields[3] : 0
        let minute = fields.count > 4 ? fields[4] : 0
        let second = fields.count > 5 ? fields[5] : 0
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...days[month - 1]).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let local = (era * 146_097 + doe - 719_468) * 86_400 + hour * 3600 + minute * 60 + second
        if let zoneOffset {
            return Date(timeIntervalSince1970: TimeInterval(local - zoneOffset))
        }
        let guess = Date(timeIntervalSince1970: TimeInterval(local - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local)))))
        return Date(timeIntervalSince1970: TimeInterval(local - timeZone.secondsFromGMT(for: guess)))
    }
}
