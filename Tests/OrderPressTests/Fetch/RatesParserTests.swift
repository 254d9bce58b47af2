import Foundation
import Testing

@testable import OrderPress

@Suite struct RatesParserTests {
    @Test func readsRter() throws {
        let json = #"{"USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 08:00:00"}, "USDJPY": {"Exrate": 154.32, "UTC": "2026-11-21 07:00:00"}, "#
            + #""USDKWD": {"Exrate": "0.30712", "Date": "2026-11-21 09:30:00"}, "EURTWD": {"Exrate": 1}}"#
        let table = try RatesParser.parse(Data(json.utf8), format: .rter)
        #expect(table.base == "USD")
        #expect(table.rates == ["USD": 1, "TWD": Decimal(string: "32.125")!, "JPY": Decimal(string: "154.32")!, "KWD": Decimal(string: "0.30712")!])
        #expect(table.asOf.map(Timestamp.iso8601) == "2026-11-21T09:30:00Z")
        #expect(table.factor(from: "TWD", to: "JPY") == Decimal(string: "154.32")! / Decimal(string: "32.125")!)
    }

    @Test func readsECB() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <gesmes:subject>Reference rates</gesmes:subject>
            <Cube><Cube time='2026-11-20'><Cube currency='USD' rate='1.1611'/><Cube currency='JPY' rate='179.52'/></Cube></Cube>
            </gesmes:Envelope>
            """
        let table = try RatesParser.parse(Data(xml.utf8), format: .ecb)
        #expect(table.base == "EUR")
        #expect(table.rates == ["EUR": 1, "USD": Decimal(string: "1.1611")!, "JPY": Decimal(string: "179.52")!])
        #expect(table.asOf.map(Timestamp.iso8601) == "2026-11-20T00:00:00Z")
        #expect(table.rates["TWD"] == nil)
    }

    @Test func readsCommonJSON() throws {
        let json = #"{"base": "usd", "date": "2026-11-20", "rates": {"TWD": 32.1, "jpy": "154"}}"#
        let table = try RatesParser.parse(Data(json.utf8), format: .json)
        #expect(table.base == "USD")
        #expect(table.rates == ["USD": 1, "TWD": Decimal(string: "32.1")!, "JPY": 154])
    }

    @Test(arguments: [
        (Configuration.RateFormat.rter, "[]", "rates: is not a rter rates document (expected a JSON object)"),
        (.rter, "{\"EURTWD\": {\"Exrate\": 1}}", "rates: holds no USDxxx rates; is this an rter feed?"),
        (.json, "{\"rates\": {}}", "rates: has no \"base\" currency"),
        (.ecb, "<html></html>", "rates: is not an ECB eurofxref document (no <Cube currency rate> entries)"),
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
