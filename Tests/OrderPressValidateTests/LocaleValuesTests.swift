import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
import OrderPressTestSupport

/// Values as each locale writes them (issue 35): dates in any order, settled by `date_order` or the
/// source's evidence and never guessed; numbers with either decimal mark; amounts with their currency's
/// sign; paid in the words people use.
@Suite struct LocaleValuesTests {
    static let headers = ["group", "orderer", "drink", "quantity", "price", "time", "paid"]

    static func validate(_ rows: [[String]], orders: String = "", groups: SourceTable? = nil, groupsTOML: String = "") throws -> ValidatedData {
        let toml = """
            timezone = "Europe/London"
            base_currency = "TWD"
            [orders]
            path = "orders.json"
            \(orders)
            """ + (groups == nil ? "" : "\n[groups]\npath = \"groups.json\"\n" + groupsTOML)
        let configuration = try TestSupport.configuration(toml)
        return try Validator(configuration: configuration).validate(orders: TestSupport.table(headers, rows), groups: groups)
    }

    static func row(_ time: String = "", price: String = "35", paid: String = "", person: String = "Amy") -> [String] {
        ["Tea", person, "紅茶", "1", price, time, paid]
    }

    static func iso(_ data: ValidatedData) -> [String?] { data.orders.map { $0.time.map(Timestamp.iso8601) } }

    // MARK: - Dates

    @Test func aDayAbove12ProvesDayFirstForTheWholeSource() throws {
        let data = try Self.validate([Self.row("05/11/2026 09:00:00"), Self.row("27/11/2026 14:05:00")])
        #expect(Self.iso(data) == ["2026-11-05T09:00:00Z", "2026-11-27T14:05:00Z"])
        #expect(data.warnings == [])
    }

    @Test func aSecondNumberAbove12ProvesMonthFirst() throws {
        let data = try Self.validate([Self.row("05/11/2026 09:00:00"), Self.row("11/27/2026 3:15:00 PM")])
        #expect(Self.iso(data) == ["2026-05-11T08:00:00Z", "2026-11-27T15:15:00Z"])
    }

    /// No proof, or proof both ways: a warning naming `date_order` and UNFORMATTED_VALUE, the time shown as written.
    @Test(arguments: [
        [row("05/11/2026 09:00:00")],
        [row("05/11/2026 09:00:00"), row("27/11/2026 09:00:00"), row("11/27/2026 09:00:00")],
    ])
    func anUnsettledDateIsAWarningNeverAGuess(rows: [[String]]) throws {
        let data = try Self.validate(rows)
        #expect(data.orders[0].time == nil)
        #expect(data.orders[0].timeText == "05/11/2026 09:00:00")
        let warning = try #require(data.warnings.first { $0.reason?.code == .timeUnsettled })
        #expect(warning.row == 2)
        #expect(warning.message.contains("date_order"))
        #expect(warning.message.contains("UNFORMATTED_VALUE"))
        #expect(warning.message.contains("'05/11/2026 09:00:00'"))
    }

    @Test(arguments: [
        ("dmy", "05/11/2026 09:00:00", "2026-11-05T09:00:00Z"),
        ("mdy", "05/11/2026 09:00:00", "2026-05-11T08:00:00Z"),
        ("dmy", "27.11.2026 14:05:00", "2026-11-27T14:05:00Z"),
        ("ymd", "2026/11/27 下午 3:15:00", "2026-11-27T15:15:00Z"),
        ("ymd", "2026. 11. 27 오후 3:15:00", "2026-11-27T15:15:00Z"),
        ("dmy", "2026-11-27 09:00", "2026-11-27T09:00:00Z"),
    ])
    func dateOrderSettlesEveryDate(order: String, time: String, iso: String) throws {
        let data = try Self.validate([Self.row(time)], orders: "date_order = \"\(order)\"")
        #expect(Self.iso(data) == [iso])
        #expect(data.warnings == [])
    }

    /// Without a setting, the forms every locale writes read when they prove themselves.
    @Test(arguments: [
        ("27.11.2026 14:05:00", "2026-11-27T14:05:00Z"), ("27/11/2026 14:05:00", "2026-11-27T14:05:00Z"),
        ("2026/11/27 下午 3:15:00", "2026-11-27T15:15:00Z"), ("2026. 11. 27 오후 3:15:00", "2026-11-27T15:15:00Z"),
        ("11/27/2026 3:15:00 PM", "2026-11-27T15:15:00Z"), ("2026/11/27 午後3:15:00", "2026-11-27T15:15:00Z"),
    ])
    func eachLocalesFormReads(time: String, iso: String) throws {
        #expect(Self.iso(try Self.validate([Self.row(time)])) == [iso])
    }

    @Test func aBadDateOrderIsAConfigurationError() throws {
        for table in ["orders", "groups"] {
            let toml = "[orders]\npath = \"o.json\"\n" + (table == "groups" ? "[groups]\npath = \"g.json\"\n" : "") + "date_order = \"dym\"\n"
            #expect(throws: ConfigurationError.self) { try TestSupport.configuration(toml) }
            do { _ = try TestSupport.configuration(toml) } catch { #expect(error.exitStatus == .usage) }
        }
        let good = try TestSupport.configuration("[orders]\npath = \"o.json\"\ndate_order = \"dmy\"\ndecimal_separator = \",\"\n[groups]\npath = \"g.json\"\ndate_order = \"ymd\"\n")
        #expect(good.orders.dateOrder == .dmy)
        #expect(good.orders.decimalSeparator == .comma)
        #expect(good.groups?.dateOrder == .ymd)
        #expect(good.groups?.decimalSeparator == .point)
        #expect(throws: ConfigurationError.self) { try TestSupport.configuration("[orders]\npath = \"o.json\"\ndecimal_separator = \";\"\n") }
        // A rates feed has fixed formats of its own: the keys are the sheets'.
        #expect(throws: ConfigurationError.self) {
            try TestSupport.configuration("[orders]\npath = \"o.json\"\n[rates]\npath = \"r.json\"\ndate_order = \"dmy\"\n")
        }
    }

    static let groupHeaders = ["group", "organizer", "deadline", "fee", "currency"]

    /// The groups source's own evidence settles its deadlines; a date alone is the end of its day.
    @Test func deadlinesReadByTheGroupsEvidenceAndADateAloneEndsItsDay() throws {
        let groups = TestSupport.table(
            Self.groupHeaders, [["Tea", "Amy", "12/11/2026 17:00:00", "", ""], ["Cake", "Ben", "24/11/2026", "", ""]], name: "groups")
        let data = try Self.validate([Self.row("12/11/2026 10:00:00")], groups: groups)
        let zone = TimeZone(identifier: "Europe/London")!
        #expect(data.groups.map { $0.deadlineTime(timeZone: zone).map(Timestamp.iso8601) } == ["2026-11-12T17:00:00Z", "2026-11-24T23:59:59Z"])
        #expect(data.groups.map { $0.deadlineShown(timeZone: zone) } == ["2026-11-12 17:00", "2026-11-24"])
        // The orders' source proves nothing by itself: its own evidence is read apart from the groups'.
        #expect(data.orders[0].time == nil)
    }

    @Test func anUnsettledDeadlineIsAWarningShownAsWritten() throws {
        let groups = TestSupport.table(Self.groupHeaders, [["Tea", "Amy", "05/11/2026", "", ""]], name: "groups")
        let data = try Self.validate([Self.row()], groups: groups)
        #expect(data.groups[0].deadlineTime(timeZone: .gmt) == nil)
        #expect(data.groups[0].deadlineShown(timeZone: .gmt) == nil)
        let warning = try #require(data.warnings.first { $0.reason?.code == .deadlineUnsettled })
        #expect(warning.message.contains("date_order in [groups]"))
        let settled = try Self.validate([Self.row()], groups: groups, groupsTOML: "date_order = \"dmy\"")
        #expect(settled.groups[0].deadlineShown(timeZone: .gmt) == "2026-11-05")
        #expect(settled.warnings == [])
    }

    @Test func aDateAloneIsTheEndOfItsDayAsADeadlineAndTheStartAsAnOrdersTime() {
        let zone = TimeZone(identifier: "Asia/Taipei")!
        let end = Timestamp.read("2026-11-24", order: nil, timeZone: zone, endOfDay: true).date!
        let start = Timestamp.read("2026-11-24", order: nil, timeZone: zone).date!
        #expect(Timestamp.display(end, timeZone: zone) == "2026-11-24 23:59")
        #expect(end > Timestamp.parse("2026-11-24 23:59:59", timeZone: zone)!)
        #expect(end < Timestamp.parse("2026-11-25 00:00", timeZone: zone)!)
        #expect(Timestamp.display(start, timeZone: zone) == "2026-11-24 00:00")
        // A whole serial is a date alone too (a cell formatted as a date, read unformatted).
        #expect(Timestamp.read("46350", order: nil, timeZone: zone, endOfDay: true).date == end)
    }

    // MARK: - Numbers

    @Test(arguments: [
        ("4,50", "4.5"), ("1.234,56", "1234.56"), ("1 234,56", "1234.56"), ("1\u{00A0}234,56", "1234.56"), ("1\u{202F}234,56", "1234.56"),
        ("1.234", "1234"), ("35", "35"), ("３５，５", "35.5"), ("1.234.567,5", "1234567.5"), ("0,05", "0.05"),
    ])
    func aDecimalCommaReads(price: String, value: String) throws {
        let data = try Self.validate([Self.row(price: price)], orders: "decimal_separator = \",\"")
        #expect(data.rejected == [])
        #expect(data.orders.map(\.unitPrice) == [Decimal(string: value)!])
    }

    /// A number that fits only the other convention is rejected with a hint naming `decimal_separator`.
    @Test(arguments: [
        (".", "4,50", ","), (".", "1.234,56", ","), (".", "1 234,56", ","), (".", "1,2", ","),
        (",", "4.50", "."), (",", "1,234.56", "."), (",", "1.23", "."),
    ])
    func theOtherConventionIsRejectedNeverReadAsAnotherNumber(setting: String, price: String, other: String) throws {
        let data = try Self.validate([Self.row(price: price)], orders: "decimal_separator = \"\(setting)\"")
        #expect(data.orders == [])
        let reason = try #require(data.rejected.first?.details.first)
        #expect(reason.code == .priceOtherSeparator)
        #expect(reason.english.contains("decimal_separator = \"\(other)\" in [orders]"))
    }

    /// The byte path and the general rules agree for both settings, on generated digit strings.
    @Test(arguments: DecimalSeparator.allCases)
    func theFastPathAgreesWithTheGeneralRules(separator: DecimalSeparator) {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["0", "1", "2", "5", "9", ".", ",", ",", "."]
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 1...9, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            let (decimal, group) = separator.marks
            guard let fast = PriceText.plainDigits(text, decimal: decimal, group: group) else { continue }
            #expect(PriceText.parseInGeneral(text, separator: separator) == .success(fast), "\(text) \(separator)")
        }
    }

    // MARK: - Currency signs

    @Test(arguments: [
        ("¥300", "JPY", "300"), ("￥300", "JPY", "300"), ("1,200円", "JPY", "1200"), ("¥300", "CNY", "300"), ("35元", "CNY", "35"),
        ("NT$35", "TWD", "35"), ("35元", "TWD", "35"), ("$4.50", "USD", "4.5"), ("$35", "TWD", "35"), ("4.50 USD", "USD", "4.5"),
        ("€4.50", "EUR", "4.5"), ("US$ 4.50", "USD", "4.5"),
    ])
    func aSignOfTheRowsCurrencyIsRead(price: String, currency: String, value: String) throws {
        let headers = Self.headers + ["currency"]
        let configuration = try TestSupport.configuration("base_currency = \"TWD\"\n[orders]\npath = \"o.json\"\n")
        let data = try Validator(configuration: configuration).validate(
            orders: TestSupport.table(headers, [["Tea", "Amy", "紅茶", "1", price, "", "", currency]]), groups: nil)
        #expect(data.rejected == [])
        #expect(data.orders.map(\.unitPrice) == [Decimal(string: value)!])
        #expect(data.amountsWithSign == 1)
        #expect(data.warnings == [])
    }

    @Test(arguments: [("€4,50", "4.5"), ("3,50 €", "3.5"), ("1 234,56 €", "1234.56")])
    func aSignBesideADecimalComma(price: String, value: String) throws {
        let configuration = try TestSupport.configuration("base_currency = \"EUR\"\n[orders]\npath = \"o.json\"\ndecimal_separator = \",\"\n")
        let data = try Validator(configuration: configuration).validate(orders: TestSupport.table(Self.headers, [Self.row(price: price)]), groups: nil)
        #expect(data.orders.map(\.unitPrice) == [Decimal(string: value)!])
    }

    @Test(arguments: [("¥300", "¥"), ("1,200円", "円"), ("US$35", "US$"), ("€4.50", "€"), ("35 JPY", "JPY")])
    func aSignThatContradictsTheCurrencyIsRejected(price: String, sign: String) throws {
        let data = try Self.validate([Self.row(price: price)])
        #expect(data.orders == [])
        let reason = try #require(data.rejected.first?.details.first)
        #expect(reason.code == .priceSignContradicts)
        #expect(reason.values["sign"] == sign)
        #expect(reason.values["currency"] == "TWD")
    }

    @Test func aGroupsFeeWithItsSignIsCountedAndAContradictingOneIsNotCountedAndSaysWhy() throws {
        let groups = TestSupport.table(
            Self.groupHeaders, [["Tea", "Amy", "", "¥300", "JPY"], ["Cake", "Ben", "", "¥300", "TWD"]], name: "groups")
        let data = try Self.validate([Self.row(), ["Cake", "Ben", "cake", "1", "35", "", ""]], groups: groups)
        #expect(data.groups.map(\.fee) == [300, 0])
        #expect(data.groups[0].feeNotCounted == nil)
        #expect(data.groups[1].feeNotCounted?.code == .groupAmountSignContradicts)
        #expect(data.amountsWithSign == 1)
    }

    // MARK: - Paid

    @Test(arguments: [
        "支払済み", "済み", "済", "〇", "○", "✓", "✔", "☑", "V", "v", "已付款", "はい", "是", "Paid", "支払い済み", "TRUE",
    ])
    func paidAsPeopleWriteIt(value: String) throws {
        let data = try Self.validate([Self.row(paid: value)])
        #expect(data.orders.map(\.paid) == [true])
        #expect(data.warnings == [])
    }

    @Test(arguments: ["未付款", "いいえ", "否", "未払い", "未", "unpaid", "Owes", "FALSE"])
    func unpaidAsPeopleWriteIt(value: String) throws {
        let data = try Self.validate([Self.row(paid: value)])
        #expect(data.orders.map(\.paid) == [false])
        #expect(data.warnings == [])
    }

    /// Every built-in catalogue's own words for paid and unpaid read as what they say.
    @Test(arguments: ["en", "zh-Hant", "zh-Hans", "ja"])
    func eachCataloguesOwnWordsRead(language: String) throws {
        let labels = Labels(language: language)
        for (key, paid) in [("paid", true), ("paid_yes", true), ("paid_no", false), ("owes", false)] {
            let data = try Self.validate([Self.row(paid: labels.text(key, [:]))])
            #expect(data.orders.map(\.paid) == [paid], "\(language) \(key)")
            #expect(data.warnings == [])
        }
    }
}
