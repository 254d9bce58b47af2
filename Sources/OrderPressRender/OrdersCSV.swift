import Foundation
import OrderPressOutput
import OrderPressSupport
import OrderPressValidate

/// `orders.csv`: every valid order, normalised, with no secret and no unmapped column, for
/// spreadsheets: UTF-8 with a byte order mark (without it Excel reads the file in the local code
/// page), CRLF line ends (RFC 4180), and no cell that a spreadsheet would run as a formula.
///
/// `paid` and `owed` (issue 24): whether the order counts as paid (`TRUE`/`FALSE`: ticked in the sheet,
/// or the group's settled organiser's) and what of it is still owed (its amount, or 0), plain decimals.
/// Both are empty without a `paid` column. A group's fee and discount are shared per person, not per
/// order: they are in no row here (`summary.json` has each person's `fee_share` and `discount_share`).
package enum OrdersCSV {
    static let header = [
        "row", "id", "group", "person", "item", "options", "quantity", "unit_price", "currency", "amount", "time", "note",
        "paid", "owed",
    ]

    /// Whether the order at a position of the orders counts as paid; nil without a `paid` column.
    package typealias PaidState = (_ position: Int, _ order: UnsafePointer<Order>) -> Bool?

    static func render(_ orders: [Order], timeZone: TimeZone, paid: PaidState? = nil) -> Data {
        let stream = MemoryStream()
        _ = write(orders, timeZone: timeZone, paid: paid, inputs: NoPieceKeys?.none, published: nil, into: stream)
        return stream.take()
    }

    /// Writes the file into `stream`, its rows in pieces of `rowsPerPiece` orders, each keyed by those
    /// orders' digests (`PageKeys`, when `orders` are the build's orders) and copied from the
    /// `published` file when it has the piece. Returns the pieces when keyed.
    package static func write<Keys: PieceKeys>(
        _ orders: [Order], timeZone: TimeZone, paid: PaidState? = nil, inputs: Keys?, published: PublishedPieces?, into stream: ByteStream
    ) -> FilePieces? {
        var out = PieceAssembler(into: stream, published: inputs == nil ? nil : published)
        out.write(Array("\u{FEFF}".utf8) + row(header))
        for start in stride(from: 0, to: orders.count, by: rowsPerPiece) {
            let positions = start..<min(start + rowsPerPiece, orders.count)
            let make = { (bytes: inout [UInt8]) in
                var row = RowWriter(timeZone: timeZone)
                for index in positions { orders.withOrder(at: index) { row.write($0.pointee, paid: paid?(index, $0), to: &bytes) } }
            }
            if let inputs { out.piece(inputs.csvPiece(positions), make: make) } else { out.write(make: make) }
        }
        guard let pieces = out.finish() else {
            stream.reset()
            return write(orders, timeZone: timeZone, paid: paid, inputs: inputs, published: nil, into: stream)
        }
        return inputs == nil ? nil : pieces
    }

    package static let fileName = "orders.csv"

    /// Orders a piece of the file holds: small enough that one changed order costs little to write again.
    static let rowsPerPiece = 1_000

    /// A row as `row` writes the order's cells, cell by cell straight into the file's bytes: a String
    /// per cell, neutralised and quoted into new Strings and joined, cost more than the rest of the
    /// file. `OrdersCSVTests` compares the two on generated orders.
    struct RowWriter {
        /// The zone's offsets, remembered by the hour: every row shows its order's time.
        private var offsets: ZoneOffsets
        /// A cell made of several values (the options), put together here first.
        private var scratch: [UInt8] = []
        /// The amounts of orders of more than one, by price and quantity: a Decimal multiplication
        /// is costly (docs/benchmarks.md), and the same few prices and quantities come back row after row.
        private var amounts: [PriceTimes: [UInt8]] = [:]

        private struct PriceTimes: Hashable {
            /// The price as stored: an equal form is an equal value, so the product has the same text.
            var price: RawDecimal
            var quantity: Int
        }

        init(timeZone: TimeZone) {
            offsets = ZoneOffsets(timeZone)
        }

        /// `paid`: whether the order counts as paid, nil without a `paid` column (both cells empty).
        package mutating func write(_ order: Order, paid: Bool? = nil, to bytes: inout [UInt8]) {
            DecimalText.withInteger(order.row) { OrdersCSV.cell($0, to: &bytes) }
            bytes.append(UInt8(ascii: ","))
            cell(order.id ?? "", to: &bytes)
            bytes.append(UInt8(ascii: ","))
            cell(order.group, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            cell(order.person, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            cell(order.item, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            options(order.options, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            DecimalText.withInteger(order.quantity) { OrdersCSV.cell($0, to: &bytes) }
            bytes.append(UInt8(ascii: ","))
            DecimalText.withExact(order.unitPrice) { OrdersCSV.cell($0, to: &bytes) }
            bytes.append(UInt8(ascii: ","))
            cell(order.currency, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            amount(of: order, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            if let time = order.time {
                Timestamp.withDisplay(time, offsets: &offsets) { OrdersCSV.cell($0, to: &bytes) }
            } else {
                cell(order.timeText, to: &bytes)
            }
            bytes.append(UInt8(ascii: ","))
            cell(order.note, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            switch paid {
            case true?: bytes += Array("TRUE,0".utf8)
            case false?:
                bytes += Array("FALSE,".utf8)
                amount(of: order, to: &bytes)
            case nil: bytes.append(UInt8(ascii: ","))
            }
            bytes += [0x0D, 0x0A]
        }

        /// `order.amount`'s cell, remembered for the next order of the same price and quantity.
        private mutating func amount(of order: Order, to bytes: inout [UInt8]) {
            guard order.quantity != 1, let price = RawDecimal(order.unitPrice) else {
                return DecimalText.withExact(order.amount) { OrdersCSV.cell($0, to: &bytes) }
            }
            let key = PriceTimes(price: price, quantity: order.quantity)
            if let known = amounts[key] { return bytes += known }
            let start = bytes.count
            DecimalText.withExact(order.amount) { OrdersCSV.cell($0, to: &bytes) }
            amounts[key] = Array(bytes[start...])
        }

        /// The options joined by spaces, as one cell.
        private mutating func options(_ options: [String], to bytes: inout [UInt8]) {
            guard options.count > 1 else { return cell(options.first ?? "", to: &bytes) }
            scratch.removeAll(keepingCapacity: true)
            for (index, option) in options.enumerated() {
                if index > 0 { scratch.append(0x20) }
                Text.withUTF8(option) { scratch.append(contentsOf: $0) }
            }
            scratch.withUnsafeBufferPointer { OrdersCSV.cell($0, to: &bytes) }
        }

        private func cell(_ text: String, to bytes: inout [UInt8]) {
            Text.withUTF8(text) { OrdersCSV.cell($0, to: &bytes) }
        }
    }

    /// `quoted(neutralized(cell))` from the cell's UTF-8, appended. The characters both look for are
    /// ASCII or (the full-width forms) three bytes each that no other scalar's UTF-8 contains, so
    /// reading bytes decides as reading scalars does.
    package static func cell(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var first = 0
        while first < utf8.count, utf8[first] == 0x20 { first += 1 }
        let formula = first < utf8.count && startsFormula(utf8, at: first)
        let quotes = needsQuotes(utf8)
        if quotes { bytes.append(UInt8(ascii: "\"")) }
        if formula { bytes.append(UInt8(ascii: "'")) }
        guard quotes else { return bytes.append(contentsOf: utf8) }
        var run = 0
        for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "\"") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...index]))
            bytes.append(byte)
            run = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether `quoted` quotes the cell: it holds a comma, a quote, CR or LF.
    private static func needsQuotes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "\""), 0x0D, 0x0A: return true
            default: continue
            }
        }
        return false
    }

    /// `startsFormula` of the scalar whose UTF-8 starts at `index`.
    private static func startsFormula(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch utf8[index] {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D, 0x0A: return true
        // U+FF1D, U+FF0B, U+FF0D, U+FF20: EF BC 9D, EF BC 8B, EF BC 8D, EF BC A0.
        case 0xEF:
            guard index + 2 < utf8.count, utf8[index + 1] == 0xBC else { return false }
            return [0x9D, 0x8B, 0x8D, 0xA0].contains(utf8[index + 2])
        default: return false
        }
    }

    /// A row the general way, a String per cell: the header, and what `RowWriter` is checked against.
    package static func row(_ cells: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += quoted(neutralized(cell)).utf8
        }
        return bytes + [0x0D, 0x0A]
    }

    /// Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): `=`,
    /// `+`, `-`, `@`, tab, CR, and LF too. Also their full-width forms `＝＋－＠`: with a Chinese or
    /// Japanese input method Excel turns a typed `＝` into `=`, and some import paths do the same;
    /// a note starting with `－` shown as `'－` costs less than a formula that runs.
    static func startsFormula(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "=", "+", "-", "@", "\t", "\r", "\n", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}": return true
        default: return false
        }
    }

    /// The cell with `'` in front when, after any leading spaces, it starts like a formula. Every
    /// column is treated alike: amounts and quantities are never negative, so no number gains a `'`,
    /// while options and notes such as "-ice" do.
    package static func neutralized(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first(where: { $0 != " " }), startsFormula(first) else { return cell }
        return "'" + cell
    }

    /// RFC 4180 quoting, decided per Unicode scalar. CSV.swift's writer decides per Character, so a
    /// comma or a quote followed by a combining mark (`,\u{301}`) was written bare and split the row.
    static func quoted(_ cell: String) -> String {
        guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return cell }
        var result = "\""
        for scalar in cell.unicodeScalars {
            if scalar == "\"" { result.unicodeScalars.append("\"") }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }
}
