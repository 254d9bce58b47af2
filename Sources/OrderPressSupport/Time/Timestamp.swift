import Foundation

/// Parses and formats the timestamps found in sheets and feeds, without DateFormatter
/// (slow, and sensitive to the machine's locale).
package enum Timestamp {
    /// Reads `2026-11-21 09:15:00`, `2026-11-21T09:15`, `2026/11/21 9:15`, `11/21/2026 9:15:00`
    /// (Google Forms), or a date alone; with `Z` or `+08:00` the zone is taken from the text,
    /// otherwise the time is local to `timeZone`. A 12-hour clock in the languages Forms write
    /// (`2026/11/21 下午 3:15:00`, `午後3:15`, `3:15:00 PM`, `오후`; see `TimestampWords`) and a Google
    /// Sheets date serial (`46347.5`; see `SheetSerial`) read too. Anything else is nil: never a
    /// time read by skipping what it could not read.
    package static func parse(_ raw: String, timeZone: TimeZone) -> Date? {
        read(raw, order: nil, timeZone: timeZone).date
    }

    /// `parse(_:timeZone:)` with the zone's offsets remembered by the hour (`ZoneOffsets`): for every
    /// order's time, on the thread that owns `offsets`.
    package static func parse(_ raw: String, offsets: inout ZoneOffsets) -> Date? {
        read(raw, order: nil, offsets: &offsets).date
    }

    /// What a sheet's time or date cell says.
    package enum Reading: Equatable {
        /// The moment; `dateOnly` when the text is a date without a time of day; `proves` the date order
        /// the text alone settles (`27/11/2026` day-first, `11/27/2026` month-first).
        case time(Date, dateOnly: Bool, proves: DateOrder?)
        /// A date whose first two numbers could each be the day or the month (`05/11/2026`) and no order
        /// to settle it: never a guess, the caller warns and shows it as written.
        case unsettled
        case unreadable

        package var date: Date? {
            if case .time(let date, _, _) = self { return date }
            return nil
        }
    }

    /// A time cell read with `order` (`date_order`, or the order its source's evidence settled; nil: only
    /// what the text itself proves). `endOfDay`: a date alone is the last instant of that day (a
    /// deadline), not its start (an order's time).
    package static func read(_ raw: String, order: DateOrder?, timeZone: TimeZone, endOfDay: Bool = false) -> Reading {
        Text.withUTF8(raw) {
            read(utf8: $0, order: order, endOfDay: endOfDay) { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
        }
    }

    /// `read(_:order:timeZone:)` with the zone's offsets remembered by the hour, for every order's time.
    package static func read(_ raw: String, order: DateOrder?, offsets: inout ZoneOffsets) -> Reading {
        Text.withUTF8(raw) { read(utf8: $0, order: order, endOfDay: false) { offsets.secondsFromGMT(at: $0) } }
    }

    /// `secondsFromGMT(instant)`: the zone's offset at `instant` seconds since 1970.
    private static func read(
        utf8 bytes: UnsafeBufferPointer<UInt8>, order: DateOrder?, endOfDay: Bool, secondsFromGMT: (Int) -> Int
    ) -> Reading {
        let fields: Fields?
        switch scan(bytes) {
        case .fields(let found):
            fields = found
        case .words:
            // Rare: a 12-hour marker (下午, PM), 年月日, or a word OrderPress does not know.
            fields = TimestampWords.parse(bytes)
        case .unreadable:
            // A Sheets serial (46347.385…) is a plain number, which the scan cannot read as a time; a
            // whole one is a date alone (a cell formatted as a date).
            guard var local = SheetSerial.wallClock(bytes) else { return .unreadable }
            let dateOnly = local % 86_400 == 0
            if dateOnly, endOfDay { local += 86_400 }
            let date = Fields.date(local: local, zoneOffset: nil, secondsFromGMT: secondsFromGMT)
            return .time(dateOnly && endOfDay ? date.addingTimeInterval(-Fields.lastInstant) : date, dateOnly: dateOnly, proves: nil)
        }
        guard let fields else { return .unreadable }
        guard let (settled, proves) = fields.settled(order) else { return .unsettled }
        guard let date = settled.date(secondsFromGMT: secondsFromGMT, endOfDay: endOfDay) else { return .unreadable }
        return .time(date, dateOnly: !settled.hasTime, proves: proves)
    }

    /// What a timestamp's numbers say: the date, the time of day (zeros when it has none) and the zone
    /// it names, if any.
    package struct Fields: Equatable {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        /// Whether the text has a time of day (hours and minutes), not just a date.
        var hasTime = false
        package var zoneOffset: Int?
        /// The year came last (`a/b/yyyy`): `month` and `day` hold the first and second number as read,
        /// which only a date order (`settled`) says are the month and the day.
        var yearLast = false

        /// How far before the next day's start a date alone ends, as a deadline: "23:59:59…" of its day.
        static let lastInstant: TimeInterval = 0.001

        /// The fields with a year-last date's day and month put in place by `order`, and the order the
        /// numbers alone prove; nil when they could be either (`05/11/2026` without an order), or the
        /// order is year-first. A year-first date is year, month, day whatever the order.
        func settled(_ order: DateOrder?) -> (Fields, proves: DateOrder?)? {
            guard yearLast else { return (self, nil) }
            var swapped = self
            (swapped.month, swapped.day) = (day, month)
            switch order {
            case .mdy: return (self, nil)
            case .dmy: return (swapped, nil)
            case .ymd: return nil
            case nil:
                let (first, second) = (month, day)
                if first > 12, (1...12).contains(second) { return (swapped, .dmy) }
                if second > 12, (1...12).contains(first) { return (self, .mdy) }
                // Both above 12 is no date; the same number twice is the same date either way.
                if first == second || (first > 12 && second > 12) || first == 0 || second == 0 { return (self, nil) }
                return nil
            }
        }

        /// The moment, reading the wall clock in the zone that `secondsFromGMT` gives offsets of unless the
        /// text named one; nil for a day or time that does not exist. `endOfDay`: a date alone is the last
        /// instant of its day.
        package func date(secondsFromGMT: (Int) -> Int, endOfDay: Bool = false) -> Date? {
            guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
            guard endOfDay, !hasTime else {
                return Self.date(local: days * 86_400 + hour * 3600 + minute * 60 + second, zoneOffset: zoneOffset, secondsFromGMT: secondsFromGMT)
            }
            return Self.date(local: (days + 1) * 86_400, zoneOffset: zoneOffset, secondsFromGMT: secondsFromGMT).addingTimeInterval(-Self.lastInstant)
        }

        /// `local` seconds since 1970 on the wall clock, in the zone `zoneOffset` names or else `secondsFromGMT`'s.
        package static func date(local: Int, zoneOffset: Int?, secondsFromGMT: (Int) -> Int) -> Date {
            if let zoneOffset {
                return Date(timeIntervalSince1970: TimeInterval(local - zoneOffset))
            }
            // Local wall time: take the zone's offset at that moment (a second look settles DST edges).
            let guess = local - secondsFromGMT(local)
            return Date(timeIntervalSince1970: TimeInterval(local - secondsFromGMT(guess)))
        }
    }

    /// What a first look at a timestamp's bytes found.
    enum Scan {
        /// Digits and separators only (`2026-11-21 09:15`, `11/21/2026 9:15:00`, `…T09:15+08:00`).
        case fields(Fields)
        /// A letter (other than the `T` between date and time and a closing `Z`) or a non-ASCII character:
        /// a word, which `TimestampWords` reads or refuses. Never skipped as if it were a separator, since
        /// a skipped 下午 or PM is a time twelve hours off.
        case words
        case unreadable
    }

    /// The fast path: digits and separators read in one pass over the bytes, without a String or an array.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        // Only the first six numbers are read, and how many there are: kept in place, not in an array
        // made and freed for every order's time.
        var fields = (0, 0, 0, 0, 0, 0)
        var fieldCount = 0
        var current = -1
        var digits = 0
        var zoneOffset: Int?
        var firstFieldDigits = 0
        var index = 0
        func flush() {
            if current >= 0 {
                switch fieldCount {
                case 0: (fields.0, firstFieldDigits) = (current, digits)
                case 1: fields.1 = current
                case 2: fields.2 = current
                case 3: fields.3 = current
                case 4: fields.4 = current
                case 5: fields.5 = current
                default: break
                }
                fieldCount += 1
            }
            current = -1
            digits = 0
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 9 else { return .unreadable }
                current = max(current, 0) * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                guard index == bytes.count - 1, fieldCount >= 4 else { return .unreadable }
                flush()
                zoneOffset = 0
            case UInt8(ascii: "+") where fieldCount >= 4, UInt8(ascii: "-") where fieldCount >= 4:
                // A zone offset after the time: +08:00, +0800, -05.
                flush()
                let sign = byte == UInt8(ascii: "-") ? -1 : 1
                let rest = bytes[(index + 1)...].filter { $0 != UInt8(ascii: ":") }
                guard rest.count == 2 || rest.count == 4, rest.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return .unreadable }
                let numbers = rest.map { Int($0 - 48) }
                let hours = numbers[0] * 10 + numbers[1]
                let minutes = rest.count == 4 ? numbers[2] * 10 + numbers[3] : 0
                zoneOffset = sign * (hours * 3600 + minutes * 60)
                index = bytes.count
                continue
            case 0x80...0xFF:
                return .words
            default:
                // One comparison on the separators' path: an ASCII letter other than the `T` of ISO 8601.
                let folded = byte | 0x20
                if folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z"), folded != UInt8(ascii: "t") { return .words }
                flush()
            }
            index += 1
        }
        flush()

        guard fieldCount == 3 || fieldCount >= 5 else { return .unreadable }
        var result = Fields(zoneOffset: zoneOffset)
        if firstFieldDigits == 4 {
            (result.year, result.month, result.day) = (fields.0, fields.1, fields.2)
        } else if fields.2 >= 1000 {
            // a/b/yyyy: month and day as read until a date order settles them (`Fields.settled`).
            (result.month, result.day, result.year, result.yearLast) = (fields.0, fields.1, fields.2, true)
        } else {
            return .unreadable
        }
        result.hasTime = fieldCount >= 5
        result.hour = fieldCount > 3 ? fields.3 : 0
        result.minute = fieldCount > 4 ? fields.4 : 0
        result.second = fieldCount > 5 ? fields.5 : 0
        return .fields(result)
    }

    /// A feed's timestamp, UTC unless it names a zone.
    package static func parseUTC(_ raw: String) -> Date? {
        parse(raw, timeZone: TimeZone(identifier: "UTC")!)
    }

    /// `2026-11-21 16:00` in `timeZone`.
    package static func display(_ date: Date, timeZone: TimeZone) -> String {
        withDisplay(date, timeZone: timeZone) { String(decoding: $0, as: UTF8.self) }
    }

    /// An ISO 8601 time from the state folder (`2026-11-21T08:00:00Z`) as `display` shows it; nil when the
    /// text is not a time.
    package static func display(iso text: String, timeZone: TimeZone) -> String? {
        parseUTC(text).map { display($0, timeZone: timeZone) }
    }

    /// `display(date, timeZone:)` as UTF-8, handed to `body` from the stack (every order line shows
    /// its time, and the 16 bytes are one byte too many for a String without an allocation).
    package static func withDisplay<Result>(_ date: Date, timeZone: TimeZone, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withDisplay(date, secondsFromGMT: { _ in timeZone.secondsFromGMT(for: date) }, body)
    }

    /// The same with the zone's offsets remembered by the hour (`ZoneOffsets`), for every order's time
    /// on the thread that owns `offsets`. An offset changes only at a whole second, so the offset at
    /// the second the moment falls in is the moment's.
    package static func withDisplay<Result>(_ date: Date, offsets: inout ZoneOffsets, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withDisplay(date, secondsFromGMT: { offsets.secondsFromGMT(at: $0) }, body)
    }

    private static func withDisplay<Result>(
        _ date: Date, secondsFromGMT: (Int) -> Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (y, m, d, hh, mm, _) = civil(seconds + secondsFromGMT(seconds))
        guard (0...9999).contains(y) else {
            var text = "\(pad(y, 4))-\(pad(m))-\(pad(d)) \(pad(hh)):\(pad(mm))"
            return text.withUTF8(body)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            write(y, m, d, hh, mm, into: buffer)
            return body(UnsafeBufferPointer(rebasing: buffer[0..<16]))
        }
    }

    /// `yyyy-MM-dd HH:mm` into the first 16 bytes of `buffer`, for a year of four digits.
    private static func write(_ y: Int, _ m: Int, _ d: Int, _ hh: Int, _ mm: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        func put(_ value: Int, endingAt end: Int, width: Int = 2) {
            var rest = value
            for position in stride(from: end - 1, through: end - width, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(y, endingAt: 4, width: 4)
        buffer[4] = UInt8(ascii: "-")
        put(m, endingAt: 7)
        buffer[7] = UInt8(ascii: "-")
        put(d, endingAt: 10)
        buffer[10] = UInt8(ascii: " ")
        put(hh, endingAt: 13)
        buffer[13] = UInt8(ascii: ":")
        put(mm, endingAt: 16)
    }

    /// `2026-11-21T08:00:00Z`.
    package static func iso8601(_ date: Date) -> String {
        let (y, m, d, hh, mm, ss) = civil(Int(date.timeIntervalSince1970.rounded(.down)))
        return "\(pad(y, 4))-\(pad(m))-\(pad(d))T\(pad(hh)):\(pad(mm)):\(pad(ss))Z"
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(_ seconds: Int) -> (Int, Int, Int, Int, Int, Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, rest / 3600, rest % 3600 / 60, rest % 60)
    }
}
