import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
import OrderPressTestSupport

/// A Google Form's response tab written the way Google Sheets shows it in thirteen locales, in both of
/// SheetDB's value modes, with many generated instants and amounts per locale: every cell is read right,
/// or warned about (a time) or rejected (a price) and shown as written — never a different value.
///
/// The formats below are written from Google Sheets' locale defaults (not through Foundation's locale
/// formatting, which the oracle must not share with what it checks):
///
/// | locale | Form timestamp        | date alone  | number      | currency cell   | user must set |
/// |--------|-----------------------|-------------|-------------|-----------------|---------------|
/// | en_US  | 11/27/2026 14:05:00   | 11/27/2026  | 1,234.56    | $1,234.56       | — (evidence) or date_order = "mdy" |
/// | en_GB  | 27/11/2026 14:05:00   | 27/11/2026  | 1,234.56    | £1,234.56       | — (evidence) or date_order = "dmy" |
/// | en_AU  | 27/11/2026 14:05:00   | 27/11/2026  | 1,234.56    | $1,234.56       | — (evidence) or date_order = "dmy" |
/// | en_IN  | 27/11/2026 14:05:00   | 27/11/2026  | 1,23,456.78 | ₹1,23,456.78    | — (evidence) or date_order = "dmy"; lakh groups read |
/// | de_DE  | 27.11.2026 14:05:00   | 27.11.2026  | 1.234,56    | 1.234,56 €      | decimal_separator = "," |
/// | fr_FR  | 27/11/2026 14:05:00   | 27/11/2026  | 1 234,56 (U+202F) | 1 234,56 € | decimal_separator = "," |
/// | es_ES  | 27/11/2026 14:05:00   | 27/11/2026  | 1.234,56    | 1.234,56 €      | decimal_separator = "," |
/// | pt_BR  | 27/11/2026 14:05:00   | 27/11/2026  | 1.234,56    | R$ 1.234,56     | decimal_separator = "," |
/// | it_IT  | 27/11/2026 14.05.00   | 27/11/2026  | 1.234,56    | 1.234,56 €      | decimal_separator = "," |
/// | ja_JP  | 2026/11/27 14:05:00   | 2026/11/27  | 1,234.56    | ￥1,235         | — |
/// | zh_TW  | 2026/11/27 下午 2:05:00 | 2026/11/27 | 1,234.56    | NT$1,234.56     | — |
/// | zh_CN  | 2026/11/27 14:05:00   | 2026/11/27  | 1,234.56    | ¥1,234.56       | — |
/// | ko_KR  | 2026. 11. 27 오후 2:05:00 | 2026. 11. 27 | 1,234.56 | ₩1,235         | — |
///
/// Checkboxes are `TRUE`/`FALSE` formatted and JSON booleans raw; raw times are date serials (days since
/// 1899-12-30 on the sheet's wall clock) and raw amounts JSON numbers.
@Suite struct LocaleMatrixTests {
    enum Order { case mdy, dmy, ymd }

    struct SheetLocale: Sendable, CustomStringConvertible {
        var name: String
        var currency: String
        var zone: String
        var order: Order
        /// Decimal mark, grouping mark, and whether groups are Indian (3 then 2s).
        var decimal: String
        var group: String
        var lakh = false
        /// The currency cell's sign before or after the number (with its space, if any).
        var prefix = ""
        var suffix = ""
        /// The time of day: `H:mm:ss`, or with a 12-hour marker before it (zh, ko), or `H.mm.ss` (it).
        var clock: Clock = .h24

        enum Clock: Sendable { case h24, h24Dots, markerBefore(am: String, pm: String) }

        var description: String { name }
        var separator: DecimalSeparator { decimal == "," ? .comma : .point }
        var minorUnits: Int { Currency.minorUnits(currency, overrides: [:]) }
        var dateOrder: DateOrder { switch order { case .mdy: .mdy; case .dmy: .dmy; case .ymd: .ymd } }
    }

    static let locales: [SheetLocale] = [
        SheetLocale(name: "en_US", currency: "USD", zone: "America/New_York", order: .mdy, decimal: ".", group: ",", prefix: "$"),
        SheetLocale(name: "en_GB", currency: "GBP", zone: "Europe/London", order: .dmy, decimal: ".", group: ",", prefix: "£"),
        SheetLocale(name: "en_AU", currency: "AUD", zone: "Australia/Sydney", order: .dmy, decimal: ".", group: ",", prefix: "$"),
        SheetLocale(name: "en_IN", currency: "INR", zone: "Asia/Kolkata", order: .dmy, decimal: ".", group: ",", lakh: true, prefix: "₹"),
        SheetLocale(name: "de_DE", currency: "EUR", zone: "Europe/Berlin", order: .dmy, decimal: ",", group: ".", suffix: " €"),
        SheetLocale(name: "fr_FR", currency: "EUR", zone: "Europe/Paris", order: .dmy, decimal: ",", group: "\u{202F}", suffix: "\u{00A0}€"),
        SheetLocale(name: "es_ES", currency: "EUR", zone: "Europe/Madrid", order: .dmy, decimal: ",", group: ".", suffix: " €"),
        SheetLocale(name: "pt_BR", currency: "BRL", zone: "America/Sao_Paulo", order: .dmy, decimal: ",", group: ".", prefix: "R$ "),
        SheetLocale(name: "it_IT", currency: "EUR", zone: "Europe/Rome", order: .dmy, decimal: ",", group: ".", suffix: " €", clock: .h24Dots),
        SheetLocale(name: "ja_JP", currency: "JPY", zone: "Asia/Tokyo", order: .ymd, decimal: ".", group: ",", prefix: "￥"),
        SheetLocale(name: "zh_TW", currency: "TWD", zone: "Asia/Taipei", order: .ymd, decimal: ".", group: ",", prefix: "NT$",
                    clock: .markerBefore(am: "上午", pm: "下午")),
        SheetLocale(name: "zh_CN", currency: "CNY", zone: "Asia/Shanghai", order: .ymd, decimal: ".", group: ",", prefix: "¥"),
        SheetLocale(name: "ko_KR", currency: "KRW", zone: "Asia/Seoul", order: .ymd, decimal: ".", group: ",", prefix: "₩",
                    clock: .markerBefore(am: "오전", pm: "오후")),
    ]

    /// One generated row: an instant (whole seconds), whether its time is written as a date alone, an
    /// amount in minor units, whether it is currency-formatted, and paid.
    struct Cell: Sendable {
        var instant: Int
        var dateAlone: Bool
        var minor: Int
        var withSign: Bool
        var paid: Bool
    }

    static let rows = Generator<[Cell], Shrink.None<[Cell]>> { rng in
        (0..<12).map { _ in
            let day = Int.random(in: 20_000...25_000, using: &rng)  // 2024–2038
            let minor: Int
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: minor = Int.random(in: 0..<10_000, using: &rng)
            case 1: minor = Int.random(in: 0..<10_000_000, using: &rng)
            default: minor = Int.random(in: 0..<100_000_000_000, using: &rng)
            }
            return Cell(
                instant: day * 86_400 + Int.random(in: 0..<86_400, using: &rng), dateAlone: Int.random(in: 0..<5, using: &rng) == 0,
                minor: minor, withSign: Bool.random(using: &rng), paid: Bool.random(using: &rng))
        }
    }

    struct Wall { var year, month, day, hour, minute, second: Int }

    static func wall(_ instant: Int, _ zone: TimeZone) -> Wall {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(instant)))
        return Wall(year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!, second: c.second!)
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func date(_ w: Wall, _ locale: SheetLocale) -> String {
        switch (locale.name, locale.order) {
        case ("ko_KR", _): return "\(w.year). \(w.month). \(w.day)"
        case ("zh_TW", _), ("zh_CN", _): return "\(w.year)/\(w.month)/\(w.day)"
        case (_, .ymd): return "\(w.year)/\(two(w.month))/\(two(w.day))"
        case ("en_US", _): return "\(w.month)/\(w.day)/\(w.year)"
        case ("de_DE", _): return "\(two(w.day)).\(two(w.month)).\(w.year)"
        default: return "\(two(w.day))/\(two(w.month))/\(w.year)"
        }
    }

    static func timestamp(_ w: Wall, _ locale: SheetLocale) -> String {
        switch locale.clock {
        case .h24: return "\(date(w, locale)) \(w.hour):\(two(w.minute)):\(two(w.second))"
        case .h24Dots: return "\(date(w, locale)) \(w.hour).\(two(w.minute)).\(two(w.second))"
        case .markerBefore(let am, let pm):
            let hour12 = w.hour % 12 == 0 ? 12 : w.hour % 12
            return "\(date(w, locale)) \(w.hour < 12 ? am : pm) \(hour12):\(two(w.minute)):\(two(w.second))"
        }
    }

    /// The amount as the locale writes a number: its grouping (in threes, or Indian), its decimal mark.
    static func number(_ minor: Int, _ locale: SheetLocale) -> String {
        let scale = locale.minorUnits
        var divisor = 1
        for _ in 0..<scale { divisor *= 10 }
        let whole = String(minor / divisor)
        var groups: [String] = []
        var rest = Substring(whole)
        var size = 3
        while rest.count > size {
            groups.insert(String(rest.suffix(size)), at: 0)
            rest = rest.dropLast(size)
            if locale.lakh { size = 2 }
        }
        groups.insert(String(rest), at: 0)
        guard scale > 0 else { return groups.joined(separator: locale.group) }
        let fraction = String(minor % divisor)
        return groups.joined(separator: locale.group) + locale.decimal + String(repeating: "0", count: scale - fraction.count) + fraction
    }

    static func amount(_ minor: Int, _ locale: SheetLocale) -> Decimal {
        Decimal(sign: .plus, exponent: -locale.minorUnits, significand: Decimal(minor))
    }

    /// A serial as Sheets' UNFORMATTED_VALUE writes it: the wall clock's days since 1899-12-30 and the
    /// fraction of the day, to twelve digits.
    static func serial(_ w: Wall) -> String {
        let days = Timestamp.daysFromCivil(year: w.year, month: w.month, day: w.day) + SheetSerial.epochDays
        let seconds = w.hour * 3600 + w.minute * 60 + w.second
        guard seconds > 0 else { return String(days) }
        let fraction = (seconds * 1_000_000_000_000 + 43_200) / 86_400
        let digits = String(fraction)
        return "\(days)." + String(repeating: "0", count: 12 - digits.count) + digits
    }

    static let headers = ["Timestamp", "Name", "Group", "Item", "Price", "Paid"]

    /// `raw`: read unformatted, numbers are JSON numbers, never written with the locale's marks: the user sets no
    /// `decimal_separator` (nor needs a `date_order`).
    static func configuration(_ locale: SheetLocale, dateOrder: Bool, raw: Bool) throws -> Configuration {
        try TestSupport.configuration(
            """
            base_currency = "\(locale.currency)"
            timezone = "\(locale.zone)"
            [orders]
            path = "orders.json"
            \(raw ? "" : "decimal_separator = \"\(locale.decimal)\"")
            \(dateOrder ? "date_order = \"\(locale.dateOrder.rawValue)\"" : "")
            [orders.columns]
            time = "Timestamp"
            person = "Name"
            group = "Group"
            item = "Item"
            options = []
            price = "Price"
            paid = "Paid"
            secret = []
            """)
    }

    /// The sheet through SheetDB's JSON, each value as written (`raw`: JSON numbers and booleans).
    static func table(_ rows: [[String]]) throws -> SourceTable {
        let objects = rows.map { row in "{" + zip(headers, row).map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}" }
        return try SheetParser.parse(Data(("[" + objects.joined(separator: ",") + "]").utf8), format: .json, source: "orders")
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Writes the rows in `raw` or formatted mode, validates them, and checks every cell against the oracle.
    static func check(_ cells: [Cell], _ locale: SheetLocale, raw: Bool, dateOrder: Bool) throws {
        let zone = TimeZone(identifier: locale.zone)!
        var written: [(time: String, price: String)] = []
        let rows = cells.enumerated().map { index, cell -> [String] in
            let w = wall(cell.instant, zone)
            let dateOnly = Wall(year: w.year, month: w.month, day: w.day, hour: 0, minute: 0, second: 0)
            let time = raw ? serial(cell.dateAlone ? dateOnly : w) : (cell.dateAlone ? date(w, locale) : timestamp(w, locale))
            let plain = number(cell.minor, locale)
            let price = raw ? "\(amount(cell.minor, locale))" : (cell.withSign ? locale.prefix + plain + locale.suffix : plain)
            written.append((time, price))
            return [
                raw ? time : quoted(time), quoted("P\(index)"), quoted("G"), quoted("tea"), raw ? price : quoted(price),
                raw ? (cell.paid ? "true" : "false") : quoted(cell.paid ? "TRUE" : "FALSE"),
            ]
        }
        let data = try Validator(configuration: configuration(locale, dateOrder: dateOrder, raw: raw)).validate(orders: table(rows), groups: nil)
        let orders = Dictionary(uniqueKeysWithValues: data.orders.map { ($0.row, $0) })
        let rejected = Dictionary(uniqueKeysWithValues: data.rejected.map { ($0.row, $0) })
        for (index, cell) in cells.enumerated() {
            let row = index + 2
            let w = wall(cell.instant, zone)
            let (time, price) = written[index]
            let context = "\(locale) raw=\(raw) date_order=\(dateOrder) row \(row): '\(time)' '\(price)'"
            let wallSeconds = Timestamp.daysFromCivil(year: w.year, month: w.month, day: w.day) * 86_400
                + (cell.dateAlone ? 0 : w.hour * 3600 + w.minute * 60 + w.second)
            let expectedTime = Timestamp.Fields.date(local: wallSeconds, zoneOffset: nil) {
                zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0)))
            }
            if let order = orders[row] {
                // A price is read right, and only then is the row an order.
                #expect(order.unitPrice == amount(cell.minor, locale), "\(context)")
                #expect(order.paid == cell.paid, "\(context)")
                if let read = order.time {
                    #expect(read == expectedTime, "\(context)")
                } else {
                    // Not read: warned, and shown as written.
                    #expect(data.warnings.contains { $0.row == row && [.timeUnsettled, .timeUnreadable].contains($0.reason?.code) }, "\(context)")
                    #expect(order.timeText == Text.normalize(time), "\(context)")
                    // With the order set, or raw, every time reads.
                    #expect(!(dateOrder || raw), "\(context)")
                }
            } else {
                let row = try #require(rejected[row], "\(context)")
                // Every locale's price reads: a rejection is a defect.
                Issue.record("\(context) rejected: \(row.reasons)")
                #expect(row.values.contains { $0.column == "Price" && $0.value == Text.normalize(price) }, "\(context)")
            }
        }
    }

    @Test(arguments: locales)
    func formattedCellsReadRightOrWarnedNeverAnotherValue(locale: SheetLocale) async {
        await propertyCheck(count: 25, input: Self.rows) { cells in
            for dateOrder in [false, true] {
                do { try Self.check(cells, locale, raw: false, dateOrder: dateOrder) } catch { Issue.record("\(locale): \(error)") }
            }
        }
    }

    @Test(arguments: locales)
    func rawCellsReadRight(locale: SheetLocale) async {
        await propertyCheck(count: 25, input: Self.rows) { cells in
            do { try Self.check(cells, locale, raw: true, dateOrder: false) } catch { Issue.record("\(locale): \(error)") }
        }
    }
}
