import Foundation

/// Reads a unit price as a sheet writes it: `35`, `35.50`, `1,200`.
enum PriceText {
    enum Problem: Error, Equatable {
        case missing
        case negative
        case formatted(String)
        case notANumber(String)

        func reason(column: String) -> String {
            switch self {
            case .missing:
                return "price is missing (column '\(column)')"
            case .negative:
                return "price must not be negative"
            case .formatted(let text):
                return "price '\(text)' is formatted as currency; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers=\(column)"
            case .notANumber(let text):
                return "price '\(text)' is not a number"
            }
        }
    }

    static func parse(_ text: String) -> Result<Decimal, Problem> {
        guard !text.isEmpty else { return .failure(.missing) }
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        if isGrouped(body) { body = Substring(body.filter { $0 != "," }) }
        if let value = DecimalText.parse(body), !body.contains(where: { $0 == "e" || $0 == "E" }) {
            return negative && value != 0 ? .failure(.negative) : .success(value)
        }
        // Currency symbols or codes around a number: how FORMATTED_VALUE shows a currency cell.
        let digits = body.filter { $0.isNumber || $0 == "." || $0 == "," }
        if !digits.isEmpty, DecimalText.parse(digits.filter { $0 != "," }) != nil, body.contains(where: { !$0.isNumber && $0 != "." && $0 != "," }) {
            return .failure(.formatted(text))
        }
        return .failure(.notANumber(text))
    }

    /// `1,200` or `12,345,678.5`: commas only between groups of three digits.
    private static func isGrouped(_ text: Substring) -> Bool {
        guard text.contains(",") else { return false }
        let integer = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let groups = integer.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) else { return false }
        return groups.dropFirst().allSatisfy { $0.count == 3 } && integer.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ",") }
    }
}
