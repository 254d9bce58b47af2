import Foundation
import OrderPressConfig
import OrderPressFetch
import OrderPressSupport

/// Reads the `[payments]` sheet into `Payment`s. A row that cannot be used (no person, no amount, an
/// amount that is not a non-negative number, an unknown currency) is not counted and is a warning naming
/// the payments row and why (`source` "payments"), so nothing is dropped silently; a sheet without its
/// person or amount column stops the build (65) like an orders sheet without its required columns.
package struct PaymentRows {
    package var configuration: Configuration

    package func read(_ table: SourceTable, groups: [Group]) throws(DataError) -> (payments: [Payment], warnings: [DataWarning]) {
        let columns = configuration.paymentColumns
        let source = configuration.payments?.name ?? "payments"
        if !(table.headers.isEmpty && table.rowCount == 0) {
            let present = Set(table.headers)
            let missing = [("person", columns.person), ("amount", columns.amount)].filter { !present.contains($0.1) }
            if !missing.isEmpty {
                let found = table.headers.filter { !$0.isEmpty }.prefix(40).map { "'\(Text.shortened($0, to: 40))'" }
                throw DataError(
                    message: "\(source): "
                        + missing.map { "column '\($0.1)' (\($0.0))" }.joined(separator: " and ")
                        + " \(missing.count == 1 ? "is" : "are") not in the sheet (headers found: \(found.isEmpty ? "none" : found.joined(separator: ", "))); "
                        + "rename the header or fix [\(source).columns] in the configuration")
            }
        }
        let cells = CellReader(table)
        let groupCurrency = Dictionary(groups.map { ($0.name, $0.currency) }, uniquingKeysWith: { first, _ in first })
        let separator = configuration.payments?.decimalSeparator ?? .point
        var payments: [Payment] = []
        var warnings: [DataWarning] = []
        func warn(_ code: ReasonCode, _ number: Int, _ values: [String: String], _ why: String) {
            var values = values
            values["row"] = String(number)
            var warning = DataWarning(row: nil, Reason(code, values, english: "\(source) row \(number): \(why); this payment is not counted"))
            warning.source = "payments"
            warnings.append(warning)
        }
        warnings += table.malformed.map {
            var warning = DataWarning(
                row: nil,
                Reason(
                    .sourceRowFields,
                    ["table": source, "row": String($0.number), "count": String($0.fieldCount), "header_count": String(table.headers.count)],
                    english: "\(source) row \($0.number) has \($0.fieldCount) fields but the header has \(table.headers.count) and is ignored"))
            warning.source = "payments"
            return warning
        }
        for row in 0..<table.dataRowCount {
            let number = table.numbers[row]
            func text(_ column: String) -> String { cells.text(table, row, column) }
            let (person, amountText, currencyText, group, time) = (
                text(columns.person), text(columns.amount), text(columns.currency).uppercased(), text(columns.group), text(columns.time)
            )
            // A row nobody filled in is nothing to warn about.
            if columns.mapped.allSatisfy({ BlankRows.isBlank(text($0)) }) { continue }
            guard !person.isEmpty else {
                warn(.paymentPersonMissing, number, ["column": columns.person], "person is missing (column '\(columns.person)')")
                continue
            }
            if !currencyText.isEmpty, !(Currency.codes.contains(currencyText) || configuration.minorUnits[currencyText] != nil) {
                warn(.paymentCurrencyUnknown, number, ["value": currencyText], "unknown currency '\(currencyText)'")
                continue
            }
            let currency = currencyText.isEmpty ? (group.isEmpty ? configuration.baseCurrency : groupCurrency[group].flatMap { $0.isEmpty ? nil : $0 }) : currencyText
            // The sign beside an amount must be its currency's (`¥300` is not TWD).
            switch PriceText.read(amountText, separator: separator, currency: currency ?? configuration.baseCurrency) {
            case .success(let amount):
                payments.append(
                    Payment(
                        row: number, person: person, personKey: PersonKey(person), amount: amount.value, currency: currency,
                        group: group.isEmpty ? nil : group, time: time.isEmpty ? nil : time))
            case .failure(.missing):
                warn(.paymentAmountMissing, number, ["column": columns.amount], "amount is missing (column '\(columns.amount)')")
            case .failure(.otherSeparator(_, let other)):
                warn(
                    .paymentAmountOtherSeparator, number, ["value": amountText, "table": source, "separator": other.rawValue],
                    "amount '\(amountText)' is written with another decimal mark than the sheet's; set decimal_separator = \"\(other.rawValue)\" in [\(source)] if the sheet writes numbers that way")
            case .failure(.signContradicts(_, let sign, let expected)):
                warn(
                    .paymentAmountSignContradicts, number, ["value": amountText, "sign": sign, "currency": expected],
                    "amount '\(amountText)' is marked \(sign), which is not \(expected), the payment's currency; write the currency in the currency column")
            case .failure(let problem):
                warn(.paymentAmountInvalid, number, ["value": amountText], "amount '\(amountText)' \(Self.why(problem))")
            }
        }
        return (payments, warnings)
    }

    private static func why(_ problem: PriceText.Problem) -> String {
        switch problem {
        case .negative: "must not be negative (a refund is a smaller payment)"
        case .tooLong: "has more than \(PriceText.integerDigits) digits before the point or \(PriceText.fractionDigits) after"
        case .formatted(_, let number, _): "is not a plain number; write \(number)"
        default: "is not a number"
        }
    }
    package init(configuration: Configuration) {
        self.configuration = configuration
    }
}
