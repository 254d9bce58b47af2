/// Reads a quantity: a whole number of cups from 1 to 10,000, written with digits 0–9 (`3`, `1,000`, or full-width `３`);
/// an empty cell is one. Bounded so that the sum of a million rows' quantities stays far from `Int.max`.
enum QuantityText {
    static let range = 1...10_000

    /// The quantity, or nil when the text is anything else (`0`, `-1`, `1.5`, `1e5`, `0x10`, `١٢`, an overflow).
    static func parse(_ text: String) -> Int? {
        if let value = parseASCII(text) { return value }
        // `２`, as an input method types it: folded (NFKC) only when the fast path failed on a non-ASCII byte.
        let folded = NumericText.folded(text)
        return folded == text ? nil : parseASCII(folded)
    }

    private static func parseASCII(_ text: String) -> Int? {
        if text.isEmpty { return 1 }
        // Looking for a comma in the bytes first: `isGrouped` reads characters, ten times slower.
        let digits = text.utf8.contains(UInt8(ascii: ",")) && PriceText.isGrouped(Substring(text)) ? text.filter { $0 != "," } : text
        var value = 0
        for byte in digits.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            guard value <= range.upperBound else { return nil }
        }
        return range.contains(value) ? value : nil
    }

    static func reason(_ text: String) -> String {
        "quantity must be a whole number from 1 to 10,000 (found '\(text)')"
    }
}
