import Foundation
import OrderPressSupport

/// The cached copy of a fetched sheet: SheetDB-shaped JSON that reads back into the same table,
/// except that no private value is kept. Secret columns hold the mask instead of their values and
/// columns the configuration does not map hold nothing, since the state folder is stored in plain text.
enum CachedSheet {
    /// `table` as a JSON array with one object per row and every header in every object,
    /// so that `SheetParser.parseJSON` gives back the same headers, row numbers and kept cells.
    /// The keys are written in the sheet's order (`sheetOrder`) where it is known, so the copy keeps it.
    package static func body(_ table: SourceTable, kept: Set<String>, masked: Set<String>) -> Data {
        let column = Dictionary(table.headers.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let inOrder = (table.sheetOrder ?? []).compactMap { column[$0] }
        let order = Set(inOrder).count == table.headers.count ? inOrder : Array(table.headers.indices)
        let headers = order.map { table.headers[$0] }.map { header -> (key: [UInt8], rule: Rule) in
            var key: [UInt8] = []
            JSONEscaper.append(header, to: &key)
            let rule: Rule = masked.contains(header) ? .mask : kept.contains(header) ? .keep : .blank
            return (key, rule)
        }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(table.dataRowCount * max(headers.count, 1) * 24)
        for rowIndex in 0..<table.dataRowCount {
            if rowIndex > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: [0x0A, UInt8(ascii: "{")])
            for (index, header) in headers.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: header.key)
                bytes.append(UInt8(ascii: ":"))
                let cell = header.rule == .blank ? "" : table.cell(rowIndex, order[index])
                switch header.rule {
                case .keep: JSONEscaper.append(cell, to: &bytes)
                case .mask: JSONEscaper.append(Text.normalize(cell).isEmpty ? "" : SecretMask.text, to: &bytes)
                case .blank: JSONEscaper.append("", to: &bytes)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: Array("\n]\n".utf8))
        return Data(bytes)
    }

    private enum Rule {
        case keep, mask, blank
    }
}
