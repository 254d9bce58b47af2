import Foundation
import OrderPressSupport
import OrderPressValidate

/// A changed field's before and after as the site shows such a value ("a paid cell
/// shows as 已付/未付, not `TRUE`"), rather than the raw cell.
extension PageBuilder {
    /// The cell `value` of `column` as Markdown: paid as the language's paid/unpaid, a price as an
    /// amount, a time as the pages show times; anything else (or a value that does not read) as written.
    func changedValue(_ value: String, column: String, currency: String) -> String {
        let columns = context.configuration.orderColumns
        // "Size:  → Large" reads as a typo; a paid cell left empty is "unpaid", below.
        if value.isEmpty, column != columns.paid { return labels.markdown("empty_value") }
        switch column {
        case columns.paid:
            // A value `PaidText` does not read (it warns) is shown as written, not as "unpaid".
            var unread: [DataWarning] = []
            let paid = PaidText.read(value, column: column, row: 0, warnings: &unread)
            return unread.isEmpty ? labels.markdown(paid ? "paid_yes" : "paid_no") : MarkdownEscaper.escape(value)
        case columns.price:
            guard case .success(let price) = PriceText.parse(value) else { return MarkdownEscaper.escape(value) }
            return context.money.display(price, currency)
        case columns.time:
            let zone = context.configuration.timeZone
            guard let time = Timestamp.parse(value, timeZone: zone) else { return MarkdownEscaper.escape(value) }
            return Timestamp.display(time, timeZone: zone)
        default:
            return MarkdownEscaper.escape(value)
        }
    }
}
