import OrderPressSupport

/// Reads a quantity: a whole number of cups from 1 to 10,000, written with digits 0–9 (`3`, `1,000`, or full-width `３`);
/// an empty cell is one. Bounded so that the sum of a million rows' quantities stays far from `Int.max`.
enum QuantityText {
    static let range = 1...10_000

    /// The quantity, or nil when the text is anything else (`0`, `-1`, `1.5`, `1e5`, `0x10`, `١٢`, an overflow).
    package static func parse(_ text: String) -> Int? {
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

    /// Why `text` is not a quantity: a whole number with a unit or sign around it, as people type into
    /// a Form's short answer (`2杯`, `2 cups`, `x2`, `２份`), says which number to write; anything else
    /// says what a quantity is.
    static func problem(_ text: String) -> Reason {
        if let number = unitTyped(text) {
            return Reason(
                .quantityFormatted, ["value": text, "number": String(number)])
        }
        return Reason(.quantityInvalid, ["value": text])
    }

    /// The number of a quantity typed with a unit (`2杯`, `2 cups`, `x2`): one run of digits, in range,
    /// with no other digit, sign, point or comma around it; nil for anything else (`兩杯`, `1.5杯`, `0杯`).
    static func unitTyped(_ text: String) -> Int? {
        let folded = NumericText.folded(text)
        guard let first = folded.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        let digits = folded[first...].prefix { $0.isASCII && $0.isNumber }
        let affixes = folded[..<first] + folded[digits.endIndex...]
        guard !affixes.isEmpty, !affixes.contains(where: { $0.isNumber || "+-.,".contains($0) }), let value = parseASCII(String(digits)) else { return nil }
        return value
    }
}
