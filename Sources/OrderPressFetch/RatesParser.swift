import Foundation
#if canImport(FoundationXML)
import FoundationXML
import OrderPressConfig
import OrderPressSupport
#endif

/// Reads exchange-rate feeds in the formats README's Configuration section names (`format`): rter.info,
/// the ECB daily XML, and common JSON.
/// Feed text never reaches a page unchecked: only ISO 4217 codes with positive rates are kept.
enum RatesParser {
    /// A feed's rates, and a warning when entries were left out.
    struct Outcome {
        package var table: RateTable
        var warning: DataWarning?
    }

    static func parse(_ data: Data, format: Configuration.RateFormat) throws(SourceError) -> Outcome {
        var entries = Entries()
        let table: RateTable
        switch format {
        case .rter: table = try parseRter(data, &entries)
        case .ecb: table = try parseECB(data, &entries)
        case .json: table = try parseJSON(data, &entries)
        }
        return Outcome(table: table, warning: entries.warning)
    }

    /// The rates kept, and how many entries were not, by reason. The entries themselves are never
    /// quoted: a hostile feed could put a link, a table row or control characters in them.
    struct Entries {
        /// Real rates lie well inside this; beyond it a cross rate times a price could overflow `Decimal`
        /// (which gives NaN, not an error).
        static let plausible = Decimal(string: "1e-9")!...Decimal(string: "1e9")!

        package var rates: [String: Decimal] = [:]
        var badCodes = 0
        var badRates = 0

        /// Keeps `rate` for `code` if the code is ISO 4217 and the rate a positive number of plausible size.
        /// Returns whether it was kept.
        @discardableResult
        mutating func add(_ code: String, _ rate: Decimal?) -> Bool {
            let code = code.uppercased()
            guard code.utf8.count == 3, Currency.codes.contains(code) else {
                badCodes += 1
                return false
            }
            guard let rate, Self.plausible.contains(rate) else {
                badRates += 1
                return false
            }
            rates[code] = rate
            return true
        }

        var warning: DataWarning? {
            var parts: [String] = []
            if badCodes > 0 { parts.append("\(Counted.text(badCodes, "entry", plural: "entries")) whose currency is not an ISO 4217 code") }
            if badRates > 0 { parts.append("\(Counted.text(badRates, "entry", plural: "entries")) whose rate is not a number from 1e-9 to 1e9") }
            guard !parts.isEmpty else { return nil }
            return DataWarning(
                row: nil,
                Reason(
                    .ratesIgnored, ["bad_codes": String(badCodes), "bad_rates": String(badRates)],
                    english: "rates: ignored \(parts.joined(separator: " and ")); check the feed"))
        }
    }

    private static func failure(_ message: String) -> SourceError {
        SourceError(source: "rates", message: message)
    }

    private static func object(_ data: Data, format: String) throws(SourceError) -> [String: Any] {
        guard let parsed = try? JSONSerialization.jsonObject(with: data), let object = parsed as? [String: Any] else {
            throw failure("is not a \(format) rates document (expected a JSON object)")
        }
        return object
    }

    /// `{"USDTWD": {"Exrate": 32.1, "UTC": "2026-11-21 08:00:00"}, ...}`: USD-based pairs.
    private static func parseRter(_ data: Data, _ entries: inout Entries) throws(SourceError) -> RateTable {
        let object = try object(data, format: "rter")
        var newest: Date?
        // "USD" itself is the base's own entry; every other key should be USD and a currency.
        for (key, value) in object where key != "USD" {
            let rate = ((value as? [String: Any])?["Exrate"]).flatMap(decimal)
            let currency = key.hasPrefix("USD") ? String(key.dropFirst(3)) : key
            guard entries.add(currency, rate), let entry = value as? [String: Any] else { continue }
            // Older payloads name the time "Date" instead of "UTC".
            if let stamp = (entry["UTC"] ?? entry["Date"]) as? String, let date = Timestamp.parseUTC(stamp) {
                newest = max(newest ?? date, date)
            }
        }
        guard !entries.rates.isEmpty else { throw failure("holds no USDxxx rates; is this an rter feed?") }
        return RateTable(base: "USD", rates: entries.rates, asOf: newest, source: "rter")
    }

    /// `{"base": "USD", "date": "2026-11-20", "rates": {"TWD": 32.1}}`.
    private static func parseJSON(_ data: Data, _ entries: inout Entries) throws(SourceError) -> RateTable {
        let object = try object(data, format: "json")
        guard let base = (object["base"] as? String)?.uppercased(), Currency.codes.contains(base) else {
            throw failure("has no \"base\" currency (an ISO 4217 code)")
        }
        guard let table = object["rates"] as? [String: Any] else { throw failure("has no \"rates\" object") }
        for (code, value) in table {
            entries.add(code, decimal(value))
        }
        let date = (object["date"] as? String).flatMap(Timestamp.parseUTC)
        return RateTable(base: base, rates: entries.rates, asOf: date, source: "json")
    }

    /// The ECB's `eurofxref-daily.xml`: EUR-based, `<Cube currency='USD' rate='1.1611'/>`.
    private static func parseECB(_ data: Data, _ entries: inout Entries) throws(SourceError) -> RateTable {
        let delegate = ECBDelegate()
        let parser = XMLParser(data: data)
        // A feed must not make the parser read local files or other addresses.
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        guard parser.parse(), !delegate.entries.isEmpty else {
            throw failure("is not an ECB eurofxref document (no <Cube currency rate> entries)")
        }
        for (currency, rate) in delegate.entries {
            entries.add(currency, DecimalText.parse(rate.trimmingCharacters(in: .whitespaces)))
        }
        let date = delegate.time.flatMap(Timestamp.parseUTC)
        return RateTable(base: "EUR", rates: entries.rates, asOf: date, source: "ecb")
    }

    /// A rate as the feed wrote it, through its text, never through a binary floating-point value.
    private static func decimal(_ value: Any) -> Decimal? {
        switch value {
        case let string as String: return DecimalText.parse(string.trimmingCharacters(in: .whitespaces))
        case let number as NSNumber: return SheetParser.boolean(number) == nil ? DecimalText.parse(number.stringValue) : nil
        default: return nil
        }
    }
}

private final class ECBDelegate: NSObject, XMLParserDelegate {
    /// Currency and rate as the feed wrote them, in document order.
    var entries: [(String, String)] = []
    var time: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        guard elementName == "Cube" || elementName.hasSuffix(":Cube") else { return }
        if let time = attributes["time"] { self.time = time }
        if let currency = attributes["currency"], let rate = attributes["rate"] {
            entries.append((currency, rate))
        }
    }
}
