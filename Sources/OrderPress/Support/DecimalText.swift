import Foundation

/// Exact decimal numbers to and from text, independent of the machine's locale.
enum DecimalText {
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Parses plain decimal text such as `35`, `35.50`, `-5`, `1e-05`; nothing else.
    /// (`Decimal(string:)` alone would read "12abc" as 12.)
    static func parse(_ text: some StringProtocol) -> Decimal? {
        var sawDigit = false
        var state = 0  // 0 sign, 1 integer digits, 2 fraction digits, 3 exponent sign, 4 exponent digits
        var sawExponentDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if state == 0 { state = 1 } else if state == 3 { state = 4 } else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if state == 0 { state = 1 }
                if state == 3 { state = 4 }
                if state >= 3 { sawExponentDigit = true } else { sawDigit = true }
            case UInt8(ascii: "."):
                guard state <= 1 else { return nil }
                state = 2
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard state == 1 || state == 2, sawDigit else { return nil }
                state = 3
            default:
                return nil
            }
        }
        guard sawDigit, state < 3 || sawExponentDigit else { return nil }
        return Decimal(string: String(text), locale: posix)
    }

    /// Rounds half-up (away from zero) to `digits` fraction digits.
    static func rounded(_ value: Decimal, digits: Int) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, digits, .plain)
        return result
    }

    /// The exact value as plain text ("35.5", "540"), never in exponent form.
    static func exact(_ value: Decimal) -> String {
        value.description
    }

    /// Rounded half-up to `digits` fraction digits and written with exactly that many ("2.80", "432").
    /// Every amount on every page goes through here: a value with no more fraction digits than
    /// asked (prices, most totals) skips the rounding, and the text is padded without splitting it.
    static func fixed(_ value: Decimal, digits: Int) -> String {
        let text = (value.exponent >= -digits ? value : rounded(value, digits: digits)).description
        guard digits > 0 else { return text }
        let utf8 = text.utf8
        guard let point = utf8.firstIndex(of: UInt8(ascii: ".")) else {
            return text + "." + String(repeating: "0", count: digits)
        }
        let fraction = utf8.distance(from: utf8.index(after: point), to: utf8.endIndex)
        return fraction >= digits ? text : text + String(repeating: "0", count: digits - fraction)
    }
}
