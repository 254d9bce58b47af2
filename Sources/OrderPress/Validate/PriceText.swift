import Foundation

/// Reads a unit price as a sheet writes it: `35`, `35.50`, `1,200`, `.5`, and as an input method types
/// it (`３５`, `１，２００`: NFKC, see `NumericText`); at most 12 digits before the point and 6 after, so
/// that no sum of a million valid rows can lose a cent (`Decimal` keeps 38 digits).
enum PriceText {
    static let integerDigits = 12
    static let fractionDigits = 6

    enum Problem: Error, Equatable {
        case missing
        case negative
        case tooLong(String)
        /// A number with a currency sign or unit around it: `text` as written, `number` the number in it,
        /// and whether it looks like the sheet's own currency format (`$1.23`, `NT$1,200.00`: a sign and
        /// exactly two decimals) rather than what someone typed (`35元`, `NT$35`).
        case formatted(String, number: String, sheetFormat: Bool)
        case notANumber(String)

        /// The reason with its code and values (`reason` is its English).
        func explained(column: String, fromSheetAPI: Bool = false) -> Reason {
            let english = reason(column: column, fromSheetAPI: fromSheetAPI)
            switch self {
            case .missing: return Reason(.priceMissing, ["column": column], english: english)
            case .negative: return Reason(.priceNegative, english: english)
            case .tooLong(let text): return Reason(.priceTooLong, ["value": text], english: english)
            case .formatted(let text, let number, let sheetFormat):
                return Reason(
                    sheetFormat && fromSheetAPI ? .priceSheetFormat : .priceFormatted, ["value": text, "number": number, "column": column],
                    english: english)
            case .notANumber(let text): return Reason(.priceNotNumber, ["value": text], english: english)
            }
        }

        /// `fromSheetAPI`: the sheet is read from a SheetDB-style URL, where `mode=UNFORMATTED_VALUE` turns the
        /// sheet's own number formats into plain numbers; from a file it cannot help.
        func reason(column: String, fromSheetAPI: Bool = false) -> String {
            switch self {
            case .missing:
                return "price is missing (column '\(column)')"
            case .negative:
                return "price must not be negative"
            case .tooLong(let text):
                return "price '\(text)' has more than \(integerDigits) digits before the point or \(fractionDigits) after"
            case .formatted(let text, let number, let sheetFormat):
                if sheetFormat, fromSheetAPI {
                    return "price '\(text)' is formatted as currency by the sheet; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers=\(column), or write \(number)"
                }
                return "price '\(text)' is not a plain number; write \(number) (the currency belongs in the currency column or the group)"
            case .notANumber(let text):
                return "price '\(text)' is not a number"
            }
        }
    }

    static func parse(_ text: String) -> Result<Decimal, Problem> {
        if let value = plainDigits(text) { return .success(value) }
        // Full-width digits and separators, as a Chinese or Japanese input method types them: only a text
        // with a byte beyond ASCII is folded (NFKC), and only after the fast path has failed.
        let folded = NumericText.folded(text)
        if folded != text, let value = plainDigits(folded) { return .success(value) }
        return parseInGeneral(folded, shown: text)
    }

    /// Every rule, for any text; `parse` tries `plainDigits` first. `shown`: the text as written, for the
    /// problem (when `text` is its NFKC form).
    static func parseInGeneral(_ text: String, shown: String? = nil) -> Result<Decimal, Problem> {
        guard !text.isEmpty else { return .failure(.missing) }
        let shown = shown ?? text
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        if let value = plainNumber(body) {
            guard fits(body) else { return .failure(.tooLong(shown)) }
            return negative && value != 0 ? .failure(.negative) : .success(value)
        }
        // Currency symbols or codes around a number: how FORMATTED_VALUE shows a currency cell ("NT$35", "35 元").
        let isNumberPart = { (c: Character) in c.isASCII && (c.isNumber || c == "." || c == ",") }
        let prefix = body.prefix { !isNumberPart($0) }
        let rest = body.dropFirst(prefix.count)
        let number = rest.prefix(while: isNumberPart)
        let suffix = rest.dropFirst(number.count)
        let affixes = prefix + suffix
        if !number.isEmpty, prefix.count + suffix.count > 0, plainNumber(number) != nil,
            !affixes.contains(where: { $0.isNumber || $0 == "-" || $0 == "+" })
        {
            // The sheet's currency format: a currency sign (not a word like 元 or TWD) and two decimals.
            let twoDecimals = number.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count == 2
            let sign = affixes.filter { !$0.isWhitespace }
            let sheetFormat = twoDecimals && sign.contains { !$0.isLetter } && sign.allSatisfy { Self.currencySignCharacters.contains($0) }
            return .failure(.formatted(shown, number: String(number), sheetFormat: sheetFormat))
        }
        return .failure(.notANumber(shown))
    }

    /// The common case read from its bytes alone: digits with at most one point, and commas between
    /// groups of three before it (`1,200`: `isGrouped`), within the digit limits; nil for anything else
    /// (a sign, other commas, too many digits), which the general rules below read (some 40,000
    /// instructions for a `1,000`).
    /// Reading characters costs ten times as much, and this is one cell of every row; so does
    /// `Decimal(string:)` (some 5,000 instructions): the value is put together from its digits here, as
    /// a significand (at most 18 digits) and a power of ten. Decimal keeps every value compact, so it
    /// is the very same Decimal that parsing the text gives.
    static func plainDigits(_ text: String) -> Decimal? {
        var integer = 0  // significant digits before the point
        var fraction = 0  // digits after the point, up to the last non-zero one
        var digits = 0
        var afterPoint = false
        var sawDigit = false
        var units: UInt64 = 0  // the digits up to the last non-zero one after the point
        var zeros = 0  // zeros after the point not yet in `units`
        var group = 0  // digits since the start or the last comma, before the point
        var grouped = false  // a comma was read
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                group += 1
                sawDigit = true
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if afterPoint {
                    if byte != UInt8(ascii: "0") {
                        fraction = digits
                        // Beyond 6 fraction digits the text is refused below: wrapping is harmless.
                        for _ in 0..<min(zeros, 7) { units = units &* 10 }
                        units = units &* 10 &+ digit
                        zeros = 0
                    } else {
                        zeros += 1
                    }
                } else {
                    if integer > 0 || byte != UInt8(ascii: "0") { integer += 1 }
                    if integer <= integerDigits { units = units * 10 + digit }
                }
            case UInt8(ascii: "."):
                guard !afterPoint, !grouped || group == 3 else { return nil }
                afterPoint = true
                digits = 0
            case UInt8(ascii: ","):
                // The first group one to three digits, every later one three.
                guard !afterPoint, grouped ? group == 3 : (1...3).contains(group) else { return nil }
                grouped = true
                group = 0
            default:
                return nil
            }
        }
        guard sawDigit, !grouped || afterPoint || group == 3, integer <= integerDigits, fraction <= fractionDigits else { return nil }
        return Decimal(sign: .plus, exponent: -fraction, significand: Decimal(units))
    }

    /// What a sheet's currency format puts around a number: signs (`$`, `€`, `¥`…) and the letters that
    /// qualify a dollar (`NT$`, `US$`, `HK$`, `A$`, `R$`).
    static let currencySignCharacters: Set<Character> = [
        "$", "€", "£", "¥", "₩", "₹", "₽", "₱", "฿", "₫", "₺", "₪", "N", "T", "U", "S", "H", "K", "A", "C", "R", "M", "X",
    ]

    /// Digits, an optional point and grouping commas, starting with a digit or the point; no sign, no exponent.
    private static func plainNumber(_ text: Substring) -> Decimal? {
        guard let first = text.first, first.isASCII, first.isNumber || first == "." else { return nil }
        guard !text.contains(where: { $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-" }) else { return nil }
        let digits = isGrouped(text) ? Substring(text.filter { $0 != "," }) : text
        return DecimalText.parse(digits)
    }

    /// At most 12 significant digits before the point and 6 after it (leading and trailing zeros aside).
    private static func fits(_ text: Substring) -> Bool {
        let parts = text.filter { $0 != "," }.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0].drop { $0 == "0" }
        let fraction = parts.count > 1 ? parts[1].reversed().drop { $0 == "0" } : []
        return integer.count <= integerDigits && fraction.count <= fractionDigits
    }

    /// `1,200` or `12,345,678.5`: commas only between groups of three digits, and none after the point
    /// (`1.000,5` is a thousand and a half where the comma is the decimal mark, not 1.0005).
    static func isGrouped(_ text: Substring) -> Bool {
        guard text.contains(",") else { return false }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 1 || !parts[1].contains(",") else { return false }
        let integer = parts[0]
        let groups = integer.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) else { return false }
        return groups.dropFirst().allSatisfy { $0.count == 3 } && integer.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ",") }
    }
}
