import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads exchange-rate feeds in the formats DESIGN.md names: rter.info, the ECB daily XML, and common JSON.
enum RatesParser {
    static func parse(_ data: Data, format: Configuration.RateFormat) throws(SourceError) -> RateTable {
        switch format {
        case .rter: return try parseRter(data)
        case .ecb: return try parseECB(data)
        case .json: return try parseJSON(data)
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
    static func parseRter(_ data: Data) throws(SourceError) -> RateTable {
        let object = try object(data, format: "rter")
        var rates: [String: Decimal] = [:]
        var newest: Date?
        for (key, value) in object where key.count == 6 && key.hasPrefix("USD") {
            guard let entry = value as? [String: Any], let rate = entry["Exrate"].flatMap(decimal), rate > 0 else { continue }
            rates[String(key.dropFirst(3))] = rate
            // Older payloads name the time "Date" instead of "UTC".
            if let stamp = (entry["UTC"] ?? entry["Date"]) as? String, let date = Timestamp.parseUTC(stamp) {
                newest = max(newest ?? date, date)
            }
        }
        guard !rates.isEmpty else { throw failure("holds no USDxxx rates; is this an rter feed?") }
        return RateTable(base: "USD", rates: rates, asOf: newest, source: "rter")
    }

    /// `{"base": "USD", "date": "2026-11-20", "rates": {"TWD": 32.1}}`.
    static func parseJSON(_ data: Data) throws(SourceError) -> RateTable {
        let object = try object(data, format: "json")
        guard let base = (object["base"] as? String)?.uppercased(), base.count == 3 else {
            throw failure("has no \"base\" currency")
        }
        guard let table = object["rates"] as? [String: Any] else { throw failure("has no \"rates\" object") }
        var rates: [String: Decimal] = [:]
        for (code, value) in table {
            guard let rate = decimal(value), rate > 0 else { continue }
            rates[code.uppercased()] = rate
        }
        let date = (object["date"] as? String).flatMap(Timestamp.parseUTC)
        return RateTable(base: base, rates: rates, asOf: date, source: "json")
    }

    /// The ECB's `eurofxref-daily.xml`: EUR-based, `<Cube currency='USD' rate='1.1611'/>`.
    static func parseECB(_ data: Data) throws(SourceError) -> RateTable {
        let delegate = ECBDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse(), !delegate.rates.isEmpty else {
            throw failure("is not an ECB eurofxref document (no <Cube currency rate> entries)")
        }
        let date = delegate.time.flatMap(Timestamp.parseUTC)
        return RateTable(base: "EUR", rates: delegate.rates, asOf: date, source: "ecb")
    }

    /// A rate as the feed wrote it, through its text, never through a binary floating-point value.
    private static func decimal(_ value: Any) -> Decimal? {
        switch value {
        case let string as String: return DecimalText.parse(string.trimmingCharacters(in: .whitespaces))
        case is Bool: return nil
        case let number as NSNumber: return DecimalText.parse(number.stringValue)
        default: return nil
        }
    }
}

private final class ECBDelegate: NSObject, XMLParserDelegate {
    var rates: [String: Decimal] = [:]
    var time: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        guard elementName == "Cube" || elementName.hasSuffix(":Cube") else { return }
        if let time = attributes["time"] { self.time = time }
        if let currency = attributes["currency"], let text = attributes["rate"],
            let rate = DecimalText.parse(text.trimmingCharacters(in: .whitespaces)), rate > 0
        {
            rates[currency.uppercased()] = rate
        }
    }
}
