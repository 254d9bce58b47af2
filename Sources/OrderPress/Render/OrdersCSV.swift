import Foundation

/// `orders.csv`: every valid order, normalised, with no secret and no unmapped column, for
/// spreadsheets: UTF-8 with a byte order mark (without it Excel reads the file in the local code
/// page), CRLF line ends (RFC 4180), and no cell that a spreadsheet would run as a formula.
enum OrdersCSV {
    static let header = [
        "row", "id", "group", "person", "item", "options", "quantity", "unit_price", "currency", "amount", "time", "note",
    ]

    static func render(_ orders: [Order], timeZone: TimeZone) -> Data {
        let stream = MemoryStream()
        _ = write(orders, timeZone: timeZone, inputs: nil, published: nil, into: stream)
        return stream.take()
    }

    /// Writes the file into `stream`, its rows in pieces of `rowsPerPiece` orders, each keyed by those
    /// orders' digests (`PageInputs`, when `orders` are the build's orders) and copied from the
    /// `published` file when it has the piece. Returns the pieces when keyed.
    static func write(_ orders: [Order], timeZone: TimeZone, inputs: PageInputs?, published: PublishedPieces?, into stream: ByteStream)
        -> FilePieces?
    {
        var out = PieceAssembler(into: stream, published: inputs == nil ? nil : published)
        out.write(Array("\u{FEFF}".utf8) + row(header))
        for start in stride(from: 0, to: orders.count, by: rowsPerPiece) {
            let positions = start..<min(start + rowsPerPiece, orders.count)
            // Bytes appended cell by cell: joining strings per row cost more than the cells.
            let make = { () -> [UInt8] in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(positions.count * 128)
                for index in positions { bytes += row(cells(orders[index], timeZone: timeZone)) }
                return bytes
            }
            if let inputs { out.piece(inputs.csvPiece(positions), make: make) } else { out.write(make()) }
        }
        guard let pieces = out.finish() else {
            stream.reset()
            return write(orders, timeZone: timeZone, inputs: inputs, published: nil, into: stream)
        }
        return inputs == nil ? nil : pieces
    }

    static let fileName = "orders.csv"

    /// Orders a piece of the file holds: small enough that one changed order costs little to write again.
    static let rowsPerPiece = 1_000

    private static func row(_ cells: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += quoted(neutralized(cell)).utf8
        }
        return bytes + [0x0D, 0x0A]
    }

    private static func cells(_ order: Order, timeZone: TimeZone) -> [String] {
        [
            String(order.row), order.id ?? "", order.group, order.person, order.item,
            order.options.joined(separator: " "), String(order.quantity), DecimalText.exact(order.unitPrice),
            order.currency, DecimalText.exact(order.amount),
            order.time.map { Timestamp.display($0, timeZone: timeZone) } ?? order.timeText, order.note,
        ]
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
    static func neutralized(_ cell: String) -> String {
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
