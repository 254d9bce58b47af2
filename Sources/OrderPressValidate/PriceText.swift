import Foundation
import OrderPressConfig
import OrderPressSupport

/// Reads a unit price as a sheet writes it: `35`, `35.50`, `1,200`, `.5`, and as an input method types
/// it (`３５`, `１，２００`: NFKC, see `NumericText`); at most 12 digits before the point and 6 after, so
/// that no sum of a million valid rows can lose a cent (`Decimal` keeps 38 digits).
package enum PriceText {
    static let integerDigits = 12
    static let fractionDigits = 6

    package enum Problem: Error, Equatable {
        case missing
        case negative
        case tooLong(String)
        /// A number with a currency sign or unit around it: `text` as written, `number` the number in it,
        /// and whether it looks like the sheet's own currency format (`$1.23`, `NT$1,200.00`: a sign and
        /// exactly two decimals) rather than what someone typed (`35元`, `NT$35`).
        case formatted(String, number: String, sheetFormat: Bool)
        /// A number that fits only the other `decimal_separator` (`4,50` with the default): never read as another number.
        case otherSeparator(String, separator: DecimalSeparator)
        /// A currency sign or code that is not the amount's currency (`¥300` in a TWD group).
        case signContradicts(String, sign: String, currency: String)
        case notANumber(String)

        /// The reason with its code and values; its English is the catalogue's (`Reason(_:_:)`).
        func explained(column: String, fromSheetAPI: Bool = false, table: String = "orders") -> Reason {
            switch self {
            case .missing: return Reason(.priceMissing, ["column": column])
            case .negative: return Reason(.priceNegative)
            case .tooLong(let text): return Reason(.priceTooLong, ["value": text])
            case .formatted(let text, let number, let sheetFormat):
                return Reason(
                    sheetFormat && fromSheetAPI ? .priceSheetFormat : .priceFormatted, ["value": text, "number": number, "column": column])
            case .otherSeparator(let text, let separator):
                return Reason(.priceOtherSeparator, ["value": text, "table": table, "separator": separator.rawValue])
            case .signContradicts(let text, let sign, let currency):
                return Reason(.priceSignContradicts, ["value": text, "sign": sign, "currency": currency])
            case .notANumber(let text): return Reason(.priceNotNumber, ["value": text])
            }
        }
    }

    /// A price read, and whether it was written with its currency's sign or code (`¥300`, `4.50 USD`).
    package struct Amount: Equatable {
        package var value: Decimal
        var signed = false
    }

    package static func parse(_ text: String, separator: DecimalSeparator = .point, currency: String? = nil) -> Result<Decimal, Problem> {
        read(text, separator: separator, currency: currency).map(\.value)
    }

    /// `separator`: the source's `decimal_separator`; `currency`: the amount's currency, whose sign or code
    /// may stand beside it (nil: none may).
    package static func read(_ text: String, separator: DecimalSeparator = .point, currency: String? = nil) -> Result<Amount, Problem> {
        let (decimal, group) = separator.marks
        if let value = plainDigits(text, decimal: decimal, group: group) { return .success(Amount(value: value)) }
        // Full-width digits and separators, as a Chinese or Japanese input method types them: only a text
        // with a byte beyond ASCII is folded (NFKC), and only after the fast path has failed.
        let folded = NumericText.folded(text)
        if folded != text, let value = plainDigits(folded, decimal: decimal, group: group) { return .success(Amount(value: value)) }
        return readInGeneral(folded, shown: text, separator: separator, currency: currency)
    }

    /// Every rule, for any text; `read` tries `plainDigits` first. `shown`: the text as written, for the
    /// problem (when `text` is its NFKC form).
    static func readInGeneral(_ text: String, shown: String?, separator: DecimalSeparator, currency: String?) -> Result<Amount, Problem> {
        guard !text.isEmpty else { return .failure(.missing) }
        let shown = shown ?? text
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        if let value = number(body, separator) {
            guard fits(canonical(body, separator) ?? "") else { return .failure(.tooLong(shown)) }
            return negative && value != 0 ? .failure(.negative) : .success(Amount(value: value))
        }
        // Currency symbols or codes around a number: how FORMATTED_VALUE shows a currency cell ("NT$35", "35 元",
        // "3,50 €"); a decimal comma's locales group thousands with a space too ("1 234,56 €").
        let isNumberPart = { (c: Character) in c.isASCII && (c.isNumber || c == "." || c == "," || (separator == .comma && c == " ")) }
        // The sign's own space (`R$ 35`) is the prefix's, not the number's.
        let prefix = body.prefix { !($0.isASCII && ($0.isNumber || $0 == "." || $0 == ",")) }
        let rest = body.dropFirst(prefix.count)
        var number = rest.prefix(while: isNumberPart)
        while number.last == " " { number = number.dropLast() }
        let suffix = rest.dropFirst(number.count)
        let affixes = prefix + suffix
        if !number.isEmpty, prefix.count + suffix.count > 0, !affixes.contains(where: { $0.isNumber || $0 == "-" || $0 == "+" }) {
            let sign = String(affixes.filter { !$0.isWhitespace })
            if let value = Self.number(number, separator) {
                guard fits(canonical(number, separator) ?? "") else { return .failure(.tooLong(shown)) }
                // A sign that names the amount's currency is how a currency-formatted cell shows it: read.
                if let currency, let currencies = CurrencySign.currencies(of: sign) {
                    guard currencies.contains(currency) else { return .failure(.signContradicts(shown, sign: sign, currency: currency)) }
                    return negative && value != 0 ? .failure(.negative) : .success(Amount(value: value, signed: true))
                }
                // The sheet's currency format: a currency sign (not a word like 元 or TWD) and two decimals.
                let plain = canonical(number, separator) ?? String(number)
                let twoDecimals = plain.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count == 2
                let sheetFormat = twoDecimals && sign.contains { !$0.isLetter } && sign.allSatisfy { Self.currencySignCharacters.contains($0) }
                return .failure(.formatted(shown, number: separator == .point ? String(number) : plain, sheetFormat: sheetFormat))
            }
            if Self.number(number, separator.other) != nil { return .failure(.otherSeparator(shown, separator: separator.other)) }
        }
        if Self.number(body, separator.other) != nil { return .failure(.otherSeparator(shown, separator: separator.other)) }
        return .failure(.notANumber(shown))
    }

    /// The common case read from its bytes alone: digits with at most one point, and commas between
    /// groups of three before it (`1,200`) or India's groups (`1,23,456`: `isGrouped`), within the digit limits; nil for anything else
    /// (a sign, other commas, too many digits), which the general rules below read, far more slowly.
    /// Reading characters is slow, and this is one cell of every row; so is
    /// `Decimal(string:)`: the value is put together from its digits here, as
    /// a significand (at most 18 digits) and a power of ten. Decimal keeps every value compact, so it
    /// is the very same Decimal that parsing the text gives.
    /// `decimal` and `group`: the marks of the source's `decimal_separator` (`.` and `,`, or `,` and `.`).
    static func plainDigits(_ text: String, decimal: UInt8 = UInt8(ascii: "."), group groupMark: UInt8 = UInt8(ascii: ",")) -> Decimal? {
        var integer = 0  // significant digits before the point
        var fraction = 0  // digits after the point, up to the last non-zero one
        var digits = 0
        var afterPoint = false
        var sawDigit = false
        var units: UInt64 = 0  // the digits up to the last non-zero one after the point
        var zeros = 0  // zeros after the point not yet in `units`
        var group = 0  // digits since the start or the last comma, before the point
        var commas = 0
        var first = 0  // digits before the first comma
        var lakhs: Bool?  // groups of two between the first and the last (`1,23,456`), once a middle group is read
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
            case decimal:
                guard !afterPoint, commas == 0 || group == 3 else { return nil }
                afterPoint = true
                digits = 0
            case groupMark:
                // The first group one to three digits, every later one three; or India's groups (`isGrouped`),
                // which only a comma separates.
                guard !afterPoint else { return nil }
                if commas == 0 {
                    guard (1...3).contains(group) else { return nil }
                    first = group
                } else if group == 3, lakhs != true {
                    lakhs = false
                } else if group == 2, lakhs != false, first <= 2, groupMark == UInt8(ascii: ",") {
                    lakhs = true
                } else {
                    return nil
                }
                commas += 1
                group = 0
            default:
                return nil
            }
        }
        guard sawDigit, commas == 0 || afterPoint || group == 3, integer <= integerDigits, fraction <= fractionDigits else { return nil }
        return Decimal(sign: .plus, exponent: -fraction, significand: Decimal(units))
    }

    /// What a sheet's currency format puts around a number: signs (`$`, `€`, `¥`…) and the letters that
    /// qualify a dollar (`NT$`, `US$`, `HK$`, `A$`, `R$`).
    static let currencySignCharacters: Set<Character> = [
        "$", "€", "£", "¥", "₩", "₹", "₽", "₱", "฿", "₫", "₺", "₪", "N", "T", "U", "S", "H", "K", "A", "C", "R", "M", "X",
    ]

    /// Digits, an optional decimal mark and grouping marks (`separator`'s), starting with a digit or the
    /// decimal mark; no sign, no exponent.
    private static func number(_ text: Substring, _ separator: DecimalSeparator) -> Decimal? {
        canonical(text, separator).flatMap { DecimalText.parse($0) }
    }

    /// The number as `DecimalText` reads it (`1234.56`), or nil when `text` is not one written with
    /// `separator`: with `.point` commas only between groups of three before the point; with `.comma` a
    /// point or a space (one of them) between groups of three before the comma.
    static func canonical(_ text: Substring, _ separator: DecimalSeparator) -> String? {
        guard let first = text.first, first.isASCII, first.isNumber || String(first) == separator.rawValue else { return nil }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "," || $0 == " ") }) else { return nil }
        switch separator {
        case .point:
            guard !text.contains(" ") else { return nil }
            if isGrouped(text) { return text.filter { $0 != "," } }
            return text.contains(",") ? nil : String(text)
        case .comma:
            let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            let integer = parts[0]
            if parts.count > 1, !parts[1].allSatisfy(\.isNumber) { return nil }
            let marks = Set(integer.filter { $0 == "." || $0 == " " })
            guard marks.count <= 1 else { return nil }
            if let mark = marks.first {
                let groups = integer.split(separator: mark, omittingEmptySubsequences: false)
                guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
            }
            let digits = integer.filter(\.isNumber)
            return parts.count > 1 ? (digits.isEmpty ? "0" : digits) + "." + parts[1] : digits
        }
    }

    /// At most 12 significant digits before the point and 6 after it (leading and trailing zeros aside);
    /// `text` is canonical (`canonical`).
    private static func fits(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0].drop { $0 == "0" }
        let fraction = parts.count > 1 ? parts[1].reversed().drop { $0 == "0" } : []
        return integer.count <= integerDigits && fraction.count <= fractionDigits
    }

    /// `1,200` or `12,345,678.5`: commas only between groups of three digits, or India's lakh and crore
    /// groups (`1,23,456.78`: three digits last, two before them), and none after the point (`1.000,5` is a
    /// thousand and a half where the comma is the decimal mark, not 1.0005). No text fits both kinds of
    /// groups with another value, so neither is a guess.
    static func isGrouped(_ text: Substring) -> Bool {
        guard text.contains(",") else { return false }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 1 || !parts[1].contains(",") else { return false }
        let integer = parts[0]
        guard integer.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ",") }) else { return false }
        let sizes = integer.split(separator: ",", omittingEmptySubsequences: false).map(\.count)
        let thousands = (1...3).contains(sizes[0]) && sizes.dropFirst().allSatisfy { $0 == 3 }
        let lakhs = (1...2).contains(sizes[0]) && sizes.last == 3 && sizes.dropFirst().dropLast().allSatisfy { $0 == 2 }
        return thousands || lakhs
    }
}
