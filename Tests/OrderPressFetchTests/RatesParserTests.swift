import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
import OrderPressTestSupport

@Suite struct RatesParserTests {
    @Test func readsRter() throws {
        let json = #"{"USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 08:00:00"}, "USDJPY": {"Exrate": 154.32, "UTC": "2026-11-21 07:00:00"}, "USDUSD": {"Exrate": 1}, "#
            + #""USDKWD": {"Exrate": "0.30712", "Date": "2026-11-21 09:30:00"}, "EURTWD": {"Exrate": 1}}"#
        let outcome = try RatesParser.parse(Data(json.utf8), format: .rter)
        let table = outcome.table
        #expect(table.base == "USD")
        #expect(table.rates == ["USD": 1, "TWD": Decimal(string: "32.125")!, "JPY": Decimal(string: "154.32")!, "KWD": Decimal(string: "0.30712")!])
        #expect(table.asOf.map(Timestamp.iso8601) == "2026-11-21T09:30:00Z")
        #expect(table.factor(from: "TWD", to: "JPY") == Decimal(string: "154.32")! / Decimal(string: "32.125")!)
        // EURTWD is not a USD pair.
        #expect(outcome.warning?.message == "rates: ignored 1 entry whose currency is not an ISO 4217 code; check the feed")
    }

    @Test func readsECB() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <gesmes:subject>Reference rates</gesmes:subject>
            <Cube><Cube time='2026-11-20'><Cube currency='USD' rate='1.1611'/><Cube currency='JPY' rate='179.52'/></Cube></Cube>
            </gesmes:Envelope>
            """
        let outcome = try RatesParser.parse(Data(xml.utf8), format: .ecb)
        let table = outcome.table
        #expect(table.base == "EUR")
        #expect(table.rates == ["EUR": 1, "USD": Decimal(string: "1.1611")!, "JPY": Decimal(string: "179.52")!])
        #expect(table.asOf.map(Timestamp.iso8601) == "2026-11-20T00:00:00Z")
        #expect(table.rates["TWD"] == nil)
        #expect(outcome.warning == nil)
    }

    @Test func readsCommonJSON() throws {
        let json = #"{"base": "usd", "date": "2026-11-20", "rates": {"TWD": 32.1, "jpy": "154"}}"#
        let outcome = try RatesParser.parse(Data(json.utf8), format: .json)
        let table = outcome.table
        #expect(table.base == "USD")
        #expect(table.rates == ["USD": 1, "TWD": Decimal(string: "32.1")!, "JPY": 154])
        #expect(outcome.warning == nil)
    }

    /// Hostile or broken entries in each format: only ISO codes with positive rates are kept, and the
    /// warning counts the others without quoting any of them.
    static let hostile: [(Configuration.RateFormat, String)] = [
        (.json, #"{"base": "USD", "rates": {"TWD": 32.1, "[PAY NOW](https://evil.example/)": 1, "|x|y|": 2, "XYZ": 3, "JPY": -154, "EUR": "abc", "GBP": 0, "CHF": true, "KRW": 1e12, "T\u0000D": 4}}"#),
        (.rter, #"{"USD": {"Exrate": 1}, "USDTWD": {"Exrate": 32.1}, "USD[PAY NOW](https://evil.example/)": {"Exrate": 1}, "USD|x|y|": {"Exrate": 2}, "USDXYZ": {"Exrate": 3}, "USDJPY": {"Exrate": -154}, "USDEUR": {"Exrate": "abc"}, "USDGBP": {"Exrate": 0}, "USDCHF": {"Exrate": true}, "USDKRW": {"Exrate": 1e12}, "USDT\u0000D": {"Exrate": 4}}"#),
        (.ecb, """
            <?xml version="1.0" encoding="UTF-8"?>
            <Envelope><Cube><Cube time='2026-11-20'>
            <Cube currency='TWD' rate='32.1'/><Cube currency='[PAY NOW](https://evil.example/)' rate='1'/>
            <Cube currency='|x|y|' rate='2'/><Cube currency='XYZ' rate='3'/><Cube currency='JPY' rate='-154'/>
            <Cube currency='EUR' rate='abc'/><Cube currency='GBP' rate='0'/><Cube currency='CHF' rate='1e'/><Cube currency='KRW' rate='1e12'/>
            <Cube currency='T D' rate='4'/>
            </Cube></Cube></Envelope>
            """),
    ]

    @Test(arguments: hostile)
    func ignoresEntriesThatAreNotACurrencyAndAPositiveRate(format: Configuration.RateFormat, body: String) throws {
        let outcome = try RatesParser.parse(Data(body.utf8), format: format)
        #expect(outcome.table.rates == [outcome.table.base: 1, "TWD": Decimal(string: "32.1")!])
        #expect(outcome.warning == DataWarning(
            row: nil,
            message: "rates: ignored 4 entries whose currency is not an ISO 4217 code and 5 entries whose rate is not a number from 1e-9 to 1e9; check the feed"))
    }

    @Test(arguments: [
        (Configuration.RateFormat.rter, "[]", "rates: is not a rter rates document (expected a JSON object)"),
        (.rter, "{\"EURTWD\": {\"Exrate\": 1}}", "rates: holds no USDxxx rates; is this an rter feed?"),
        (.json, "{\"rates\": {}}", "rates: has no \"base\" currency (an ISO 4217 code)"),
        (.json, "{\"base\": \"|x|\", \"rates\": {}}", "rates: has no \"base\" currency (an ISO 4217 code)"),
        (.ecb, "<html></html>", "rates: is not an ECB eurofxref document (no <Cube currency rate> entries)"),
        // A billion laughs: libxml2 refuses the entity amplification.
        (.ecb, "<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY l0 \"lollollollol\">"
            + (1...9).map { "<!ENTITY l\($0) \"" + String(repeating: "&l\($0 - 1);", count: 10) + "\">" }.joined()
            + "]><Cube><Cube currency='USD' rate='1'>&l9;</Cube></Cube>",
         "rates: is not an ECB eurofxref document (no <Cube currency rate> entries)"),
    ])
    func rejectsOtherDocuments(format: Configuration.RateFormat, body: String, message: String) {
        do {
            _ = try RatesParser.parse(Data(body.utf8), format: format)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }
}
