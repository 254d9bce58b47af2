import Foundation
import OrderPressConfig
import OrderPressSupport

/// A group's `fee` or `discount` cell: a non-negative decimal read by the price's rules (`PriceText`:
/// `60`, `1,200`, `３０`). Empty is nothing to share; anything else that is not such a number is a
/// warning naming the groups row and the value, and counts as 0.
enum GroupAmount {
    /// `fromSheetAPI`: the groups tab is read from a SheetDB-style URL without `mode=UNFORMATTED_VALUE`
    /// (`Validator.readsSheetAPI`), so a cell in the sheet's own currency format (`$5.00`) is fixed for the
    /// whole column by reading it unformatted, as a price is (`PriceText.Problem`); from a file, only by
    /// writing the number.
    /// A fee or discount read: the amount (0 when it cannot be), whether it was written with its currency's
    /// sign, and why it is not counted when it cannot be read.
    package struct Reading: Equatable {
        package var value: Decimal = 0
        var signed = false
        var notCounted: Reason?
    }

    /// `separator`: the groups source's `decimal_separator`; `currency`: the group's, whose sign may stand
    /// beside the amount; `table`: the source's configuration table, for a hint.
    package static func read(
        _ text: String, column: String, row: Int, fromSheetAPI: Bool, separator: DecimalSeparator = .point, currency: String? = nil,
        table: String = "groups", warnings: inout [DataWarning]
    ) -> Reading {
        guard !text.isEmpty else { return Reading() }
        var values = ["row": String(row), "column": column, "value": text]
        let (code, why): (ReasonCode, String)
        switch PriceText.read(text, separator: separator, currency: currency) {
        case .success(let amount):
            return Reading(value: amount.value, signed: amount.signed)
        case .failure(.missing):
            return Reading()
        case .failure(_) where text.contains(where: { $0 == "%" || $0 == "％" }):
            // "10%" off is how a shop states a discount, but the sheet's cell is an amount: "write 10" would take
            // off 10 of the currency. Say what to write instead.
            (code, why) = (.groupAmountPercent, "is a percentage and counts as 0; write the amount it takes off, in the group's currency")
        case .failure(.negative):
            (code, why) = (.groupAmountInvalid, "must not be negative and counts as 0")
        case .failure(.tooLong):
            (code, why) = (
                .groupAmountInvalid,
                "has more than \(PriceText.integerDigits) digits before the point or \(PriceText.fractionDigits) after and counts as 0"
            )
        case .failure(.formatted(_, let number, sheetFormat: true)) where fromSheetAPI:
            values["number"] = number
            (code, why) = (
                .groupAmountSheetFormat,
                "is formatted as currency by the sheet and counts as 0; read the groups sheet with mode=UNFORMATTED_VALUE or cast_numbers=\(column), or write \(number)"
            )
        case .failure(.formatted(_, let number, _)):
            // Its own code, so that a page in another language says what to write too.
            values["number"] = number
            (code, why) = (.groupAmountFormatted, "is not a plain number (write \(number)) and counts as 0")
        case .failure(.otherSeparator(_, let other)):
            (values["table"], values["separator"]) = (table, other.rawValue)
            (code, why) = (
                .groupAmountOtherSeparator,
                "is written with another decimal mark than the sheet's and counts as 0; set decimal_separator = \"\(other.rawValue)\" in [\(table)] if the sheet writes numbers that way"
            )
        case .failure(.signContradicts(_, let sign, let currency)):
            (values["sign"], values["currency"]) = (sign, currency)
            (code, why) = (.groupAmountSignContradicts, "is marked \(sign), which is not \(currency), the group's currency, and counts as 0")
        case .failure:
            (code, why) = (.groupAmountInvalid, "is not a number and counts as 0")
        }
        let reason = Reason(code, values, english: "groups row \(row): \(column) '\(text)' \(why)")
        warnings.append(DataWarning(row: nil, reason))
        return Reading(notCounted: reason)
    }
}
