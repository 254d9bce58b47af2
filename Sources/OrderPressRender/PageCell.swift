import Foundation
import OrderPressSupport
import OrderPressValidate

/// A value of a page's model that writes itself into the page: an amount from its `Decimal`, an order's
/// text from the order where it is stored, user text escaped and shortened on the way in, so that no
/// String is made for a cell of an order. The cells are declared to the page generator as
/// `cell Name` in templates/models/PageModels.txt, which compiles `{{cell}}` to `cell.write(into: &out)`. For a template
/// of the user's, swift-mustache sees each cell as its text (`description`, through `TemplateContext`),
/// the same bytes.
package protocol PageCell: CustomStringConvertible {
    func write(into page: inout PageBytes)
}

extension PageCell {
    /// The cell's text, as a template of the user's shows it.
    package var description: String {
        var page = PageBytes()
        write(into: &page)
        return String(decoding: page.take(), as: UTF8.self)
    }
}

/// One of an order's cells, read from the order where it is stored (`OrderList.withOrder`): valid only
/// while the row it belongs to is (`PageRows`). `shortened`: over-long text is cut, as on group pages.
package struct OrderCell: PageCell {
    package enum Field {
        case person, item, unitPrice, amount, time, note
    }

    package let order: UnsafePointer<Order>
    package let field: Field
    let shortened: Bool
    let format: PageFormat

    package func write(into page: inout PageBytes) {
        let order = order
        func text(_ value: String, _ limit: Int) { page.escaped(shortened ? Text.shortened(value, to: limit) : value) }
        switch field {
        case .person:
            text(order.pointee.person, TextLimits.person)
        case .item:
            text(order.pointee.item, TextLimits.item)
            for option in order.pointee.options {
                page.text(" ")
                text(option, TextLimits.option)
            }
        case .unitPrice:
            format.writePrice(order.pointee.unitPrice, times: 1, multiplied: false, order.pointee.currency, into: &page) { order.pointee.unitPrice }
        case .amount:
            let quantity = order.pointee.quantity
            format.writePrice(order.pointee.unitPrice, times: quantity, multiplied: quantity != 1, order.pointee.currency, into: &page) {
                order.pointee.amount
            }
        case .time:
            guard let time = order.pointee.time else { return page.escaped(order.pointee.timeText) }
            // Its bytes from the stack: 16 bytes are one too many for a String without an allocation.
            Timestamp.withDisplay(time, timeZone: format.context.configuration.timeZone) { page.write($0) }
            if format.context.isLate(order.pointee) {
                page.text(" ")
                page.write(format.lateMark)
            }
        case .note:
            text(order.pointee.note, TextLimits.note)
        }
    }
}

/// An amount as `MoneyFormat.display` writes it, with its currency after it ("155 TWD") or not.
package struct MoneyCell: PageCell {
    package let amount: Decimal
    package let currency: String
    let withCurrency: Bool
    let format: PageFormat

    package func write(into page: inout PageBytes) {
        format.write(amount, currency, into: &page)
        if withCurrency {
            page.text(" ")
            page.write(currency)
        }
    }
}

/// An amount converted into a display currency ("68.79", or "n/a" without a rate), with its currency
/// after it or not.
package struct ConvertedCell: PageCell {
    package let converted: ConvertedAmount
    let withCurrency: Bool
    let format: PageFormat

    package func write(into page: inout PageBytes) {
        format.write(converted, into: &page)
        if withCurrency {
            page.text(" ")
            page.write(converted.currency)
        }
    }
}

/// User text escaped for Markdown, cut to `limit` characters when it is longer (`Text.shortened`).
package struct TextCell: PageCell {
    package let text: String
    let limit: Int

    package func write(into page: inout PageBytes) {
        page.escaped(Text.shortened(text, to: limit))
    }
}

/// A link to a page by its slug, "../people/<slug>.md".
package struct LinkCell: PageCell {
    let folder: StaticString
    package let slug: String

    package func write(into page: inout PageBytes) {
        page.text(folder)
        page.write(slug)
        page.text(".md")
    }
}

/// A cell of a line of a group's shop sheet: "3 × 熟成紅茶 L 半糖 少冰" (`ShopLine.text`, escaped), its unit
/// price or its total, the amounts remembered on the page as the orders' are.
package struct ShopLineCell: PageCell {
    package enum Field {
        case text, unitPrice, lineTotal
    }

    let line: UnsafePointer<ShopLine>
    package let field: Field
    package let currency: String
    let format: PageFormat

    package func write(into page: inout PageBytes) {
        let line = line
        switch field {
        case .text:
            // Escaping goes scalar by scalar, so part by part.
            page.escaped("\(line.pointee.quantity) ×")
            page.text(" ")
            page.escaped(line.pointee.item)
            for option in line.pointee.options {
                page.text(" ")
                page.escaped(option)
            }
        case .unitPrice:
            format.writePrice(line.pointee.unitPrice, times: 1, multiplied: false, currency, into: &page) { line.pointee.unitPrice }
        case .lineTotal:
            format.writePrice(line.pointee.unitPrice, times: line.pointee.quantity, multiplied: true, currency, into: &page) {
                line.pointee.lineTotal
            }
        }
    }
}
