import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
import OrderPressTestSupport

/// Times as Google Sheets writes a Form's timestamp in each language, and as `mode=UNFORMATTED_VALUE`
/// gives it (a date serial): read as the moment they say, never twelve hours off; anything else is nil.
@Suite struct TimestampWordsTests {
    static let taipei = TimeZone(identifier: "Asia/Taipei")!

    @Test(arguments: [
        ("2026/11/21 下午 3:15:00", "2026-11-21T07:15:00Z"),
        ("2026/11/21 上午 3:15:00", "2026-11-20T19:15:00Z"),
        ("2026/11/21 午後3:15:00", "2026-11-21T07:15:00Z"),
        ("2026/11/21 午前9:05", "2026-11-21T01:05:00Z"),
        ("11/21/2026 3:15:00 PM", "2026-11-21T07:15:00Z"),
        ("11/21/2026 3:15:00 pm", "2026-11-21T07:15:00Z"),
        ("11/21/2026 3:15:00 p.m.", "2026-11-21T07:15:00Z"),
        ("11/21/2026 3:15 A.M.", "2026-11-20T19:15:00Z"),
        ("2026年11月21日 下午3:31:00", "2026-11-21T07:31:00Z"),
        ("2026年11月21日 15:31", "2026-11-21T07:31:00Z"),
        ("2026年11月21日", "2026-11-20T16:00:00Z"),
        ("2026. 11. 21 오후 3:15:00", "2026-11-21T07:15:00Z"),
        ("2026. 11. 21. 오전 10:00:00", "2026-11-21T02:00:00Z"),
        ("2026년 11월 21일 오후 3시 15분", "2026-11-21T07:15:00Z"),
        ("2026年11月21日 下午3時15分00秒", "2026-11-21T07:15:00Z"),
        // 12 AM is midnight, 12 PM noon; 午前0時 is midnight too.
        ("2026/11/21 上午 12:05:00", "2026-11-20T16:05:00Z"),
        ("2026/11/21 下午 12:05:00", "2026-11-21T04:05:00Z"),
        ("11/21/2026 12:00:00 AM", "2026-11-20T16:00:00Z"),
        ("11/21/2026 12:00:00 PM", "2026-11-21T04:00:00Z"),
        ("2026/11/21 午前0:15", "2026-11-20T16:15:00Z"),
        // Full-width digits and colon, as an input method types them; a narrow no-break space before PM.
        ("２０２６/１１/２１ 下午 ３：１５：００", "2026-11-21T07:15:00Z"),
        ("11/21/2026 3:15:00\u{202F}PM", "2026-11-21T07:15:00Z"),
        ("2026-11-21T15:15:00+08:00", "2026-11-21T07:15:00Z"),
        // Google Sheets serials: days since 1899-12-30 on the zone's wall clock.
        ("46347.5", "2026-11-21T04:00:00Z"),
        ("46347", "2026-11-20T16:00:00Z"),
        ("46347.63541666667", "2026-11-21T07:15:00Z"),
        ("46347.635416666664", "2026-11-21T07:15:00Z"),
        ("46347.99999999", "2026-11-21T16:00:00Z"),
    ])
    func readsWhatFormsWrite(text: String, expected: String) {
        #expect(Timestamp.parse(text, timeZone: Self.taipei).map(Timestamp.iso8601) == expected)
        var offsets = ZoneOffsets(Self.taipei)
        #expect(Timestamp.parse(text, offsets: &offsets).map(Timestamp.iso8601) == expected)
    }

    @Test(arguments: [
        // A marker with no time, twice, or with an hour a 12-hour clock does not have.
        "2026/11/21 下午", "2026/11/21 下午 3:15 PM", "2026/11/21 下午 13:15:00", "2026/11/21 下午3時",
        // Words OrderPress does not know are never skipped.
        "2026/11/21 晚上 8:00", "2026-11-21 09:15 (Sat)", "Nov 21, 2026 3:15 PM", "2026-11-21 noon", "2026/11/21 ampm 3:15",
        "2026/11/21 3:15 PMx", "2026/11/21 中午 12:00",
        // The time before the date: no sheet writes it so, and its numbers would be read as a date.
        "下午 2:00:00 2026/11/21",
        // Numbers that are no serial of a date since 1970: a typed hour, a price, negative, two points.
        "18", "35", "1200", "-46347.5", "46347.5.1", "46347.", ".5", "3000000",
    ])
    func refusesWhatItCannotReadForSure(text: String) {
        #expect(Timestamp.parse(text, timeZone: Self.taipei) == nil)
    }

    // MARK: - parse(format(t)) = t

    static let zones = ["Asia/Taipei", "Asia/Tokyo", "Asia/Seoul", "UTC"].map { TimeZone(identifier: $0)! }

    /// The spellings, each a function of the wall clock's fields (and, for `Z`, of the instant).
    enum Spelling: CaseIterable {
        case zhTW, zhDate, ja, en, enDots, ko, iso, isoUTC, en24, fullWidth, serial, serialJSON
    }

    struct Wall {
        var year, month, day, hour, minute, second: Int
        var hour12: Int { hour % 12 == 0 ? 12 : hour % 12 }
        var pm: Bool { hour >= 12 }
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `local` (seconds since 1970 on the wall clock) as a Sheets serial with 13 decimals, from exact integers.
    static func serial(_ local: Int) -> String {
        let days = local.quotientAndRemainder(dividingBy: 86_400)
        let scaled = (days.remainder * 10_000_000_000_000 + 43_200) / 86_400
        let fraction = String(scaled)
        return "\(days.quotient + 25_569)." + String(repeating: "0", count: 13 - fraction.count) + fraction
    }

    static func text(_ spelling: Spelling, _ w: Wall, local: Int, utc: Wall, rng: inout some RandomNumberGenerator) -> String {
        let time12 = "\(w.hour12):\(two(w.minute)):\(two(w.second))"
        let time24 = "\(two(w.hour)):\(two(w.minute)):\(two(w.second))"
        switch spelling {
        case .zhTW: return "\(w.year)/\(w.month)/\(w.day) \(w.pm ? "下午" : "上午") \(time12)"
        case .zhDate: return "\(w.year)年\(w.month)月\(w.day)日 \(w.pm ? "下午" : "上午")\(time12)"
        case .ja: return "\(w.year)/\(two(w.month))/\(two(w.day)) \(w.pm ? "午後" : "午前")\(time12)"
        case .en: return "\(w.month)/\(w.day)/\(w.year) \(time12) \([w.pm ? "PM" : "AM", w.pm ? "pm" : "am"].randomElement(using: &rng)!)"
        case .enDots: return "\(w.month)/\(w.day)/\(w.year) \(time12) \([w.pm ? "p.m." : "a.m.", w.pm ? "P.M." : "A.M."].randomElement(using: &rng)!)"
        case .ko: return "\(w.year). \(w.month). \(w.day) \(w.pm ? "오후" : "오전") \(time12)"
        case .iso: return "\(w.year)-\(two(w.month))-\(two(w.day)) \(time24)"
        case .isoUTC: return "\(utc.year)-\(two(utc.month))-\(two(utc.day))T\(two(utc.hour)):\(two(utc.minute)):\(two(utc.second))Z"
        case .en24: return "\(w.month)/\(w.day)/\(w.year) \(w.hour):\(two(w.minute)):\(two(w.second))"
        case .fullWidth:
            let ascii = "\(w.year)/\(w.month)/\(w.day) \(w.pm ? "下午" : "上午") \(time12)"
            return String(String.UnicodeScalarView(ascii.unicodeScalars.map { $0.properties.numericType != nil || $0 == ":" ? Unicode.Scalar($0.value + 0xFEE0)! : $0 }))
        case .serial: return serial(local)
        case .serialJSON:
            // Through the sheet's JSON reader, as mode=UNFORMATTED_VALUE sends it: a number, not a string.
            let body = Data("[{\"time\": \(serial(local))}]".utf8)
            return (try? SheetParser.parse(body, format: .json, source: "orders").rows.first?.cells.first) ?? "unreadable"
        }
    }

    static func wall(_ seconds: Int, _ zone: TimeZone) -> Wall {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return Wall(year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!, second: c.second!)
    }

    /// An instant from 1990 to 2199 at a whole second (often in the hours around midnight and noon, where
    /// 12 AM and 12 PM are), and a zone without daylight saving in those years.
    static let instants = Generator<(Int, Int), Shrink.None<(Int, Int)>> { rng in
        let day = Int.random(in: 7305...84_000, using: &rng)
        let second: Int
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: second = Int.random(in: 0..<86_400, using: &rng)
        case 1: second = Int.random(in: -3600..<3600, using: &rng)
        default: second = 43_200 + Int.random(in: -3600..<3600, using: &rng)
        }
        return (day * 86_400 + second, Int.random(in: 0..<zones.count, using: &rng))
    }

    @Test func everySpellingReadsBackTheInstantItWasWrittenFrom() async {
        await propertyCheck(count: 300, input: Self.instants) { instant, zoneIndex in
            var rng = SystemRandomNumberGenerator()
            let zone = Self.zones[zoneIndex]
            let local = instant + zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            let wall = Self.wall(instant, zone), utc = Self.wall(instant, TimeZone(identifier: "UTC")!)
            var offsets = ZoneOffsets(zone)
            for spelling in Spelling.allCases {
                let text = Self.text(spelling, wall, local: local, utc: utc, rng: &rng)
                let expected = Date(timeIntervalSince1970: TimeInterval(instant))
                // A month-first date is read with its order (`date_order`, or its source's evidence); without
                // one, only when its numbers settle it.
                let monthFirst = [.en, .enDots, .en24].contains(spelling)
                let order: DateOrder? = monthFirst ? .mdy : nil
                #expect(Timestamp.read(text, order: order, timeZone: zone).date == expected, "\(spelling) \(text) in \(zone.identifier)")
                #expect(Timestamp.read(text, order: order, offsets: &offsets).date == expected, "\(spelling) \(text) in \(zone.identifier)")
                let settled = !monthFirst || wall.day > 12 || wall.day == wall.month
                #expect(Timestamp.parse(text, timeZone: zone) == (settled ? expected : nil), "\(spelling) \(text) in \(zone.identifier)")
            }
        }
    }

    /// The other way round, for the marker: the same text with AM and PM swapped never reads the same
    /// (except that nothing is read twelve hours off: the difference is exactly twelve hours).
    @Test(arguments: [("上午", "下午"), ("午前", "午後"), ("오전", "오후"), ("AM", "PM"), ("a.m.", "p.m.")])
    func theMarkerMovesTheTimeByTwelveHours(am: String, pm: String) throws {
        for hour in 1...12 {
            let morning = try #require(Timestamp.parse("2026/11/21 \(am) \(hour):30:00", timeZone: Self.taipei))
            let afternoon = try #require(Timestamp.parse("2026/11/21 \(pm) \(hour):30:00", timeZone: Self.taipei))
            #expect(afternoon.timeIntervalSince(morning) == 43_200)
            #expect(Timestamp.display(morning, timeZone: Self.taipei) == "2026-11-21 \(hour == 12 ? "00" : TimestampWordsTests.two(hour)):30")
        }
    }

    /// The pieces timestamps are made of here: the markers and units, ASCII digits, separators and
    /// words, and what the byte path must leave to the text path (full-width digits and colons, a
    /// combining accent, CR LF, a tab, another script's word, a lone lead byte of a marker).
    static let pieces: [String] = TimestampWords.markers.map(\.text) + TimestampWords.units.map { String($0) } + [
        "2026", "11", "21", "3", "12", "0", "59", "/", "-", ":", ".", " ", "  ", ",", "T", "t", "Z", "z", "+08:00",
        "AM", "pm", "a.m.", "P.M", "Sat", "noon", "x", "３", "：", "\u{301}", "\r\n", "\t", "晚上", "上", "午", "오",
    ]

    /// A timestamp as a Form writes one (a date in one of its layouts, a marker before or after a time,
    /// or none), then as often as not with a few pieces put in anywhere.
    static let soups = Generator<String, Shrink.None<String>> { rng in
        func pick(_ options: [String]) -> String { options.randomElement(using: &rng)! }
        let (month, day, hour, minute) = (Int.random(in: 0...13, using: &rng), Int.random(in: 0...32, using: &rng),
            Int.random(in: 0...13, using: &rng), Int.random(in: 0...60, using: &rng))
        let date = pick(["2026/\(month)/\(day)", "\(month)/\(day)/2026", "2026年\(month)月\(day)日", "2026. \(month). \(day).", "2026-\(month)-\(day)"])
        let marker = pick(TimestampWords.markers.map(\.text) + ["AM", "pm", "a.m.", "P.M.", ""])
        let time = pick(["\(hour):\(minute < 10 ? "0" : "")\(minute):05", "\(hour):\(minute)", "\(hour)時\(minute)分", "\(hour)시 \(minute)분"])
        var pieces = marker.first?.isASCII == true ? [date, " ", time, " ", marker] : [date, pick([" ", ""]), marker, pick([" ", ""]), time]
        for _ in 0..<(Bool.random(using: &rng) ? 0 : Int.random(in: 1...3, using: &rng)) {
            pieces.insert(Self.pieces.randomElement(using: &rng)!, at: Int.random(in: 0...pieces.count, using: &rng))
        }
        return pieces.joined()
    }

    /// Whenever the byte path reads a text (a Form's every row), it reads what the text path reads.
    @Test func theBytePathReadsWhatTheTextPathReads() async {
        // The texts every Form row holds are read by the byte path, not left to the text path.
        for text in ["2026/11/21 下午 3:15:00", "11/21/2026 3:15:00 PM", "2026年11月21日 午後3時15分", "2026. 11. 21 오후 3:15:00"] {
            var bytes = Array(text.utf8)
            let read = bytes.withUnsafeMutableBufferPointer { TimestampWords.readBytes(UnsafeBufferPointer($0)) }
            guard case .read(let fields) = read else { Issue.record("\(text) was left to the text path"); continue }
            #expect(fields != nil, "\(text)")
        }
        await propertyCheck(count: 3000, input: Self.soups) { text in
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { bytes in
                if case .read(let fields) = TimestampWords.readBytes(bytes) {
                    #expect(fields == TimestampWords.parseText(bytes), "\(text.debugDescription)")
                }
            }
        }
    }
}
