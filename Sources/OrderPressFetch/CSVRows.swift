import Foundation
import OrderPressSupport

/// Splits CSV bytes that `CSVSyntax.scan` found well-formed into cells, byte by byte: a field's bounds are
/// found by looking for the next comma or line break (a quoted field's, for its closing quote with
/// `memchr`), and each cell's bytes are copied into the table's `CellStore` at once, un-doubling `""` only in a quoted cell that
/// holds one. A large sheet is split on every core, in stretches of whole rows that the scan marked.
///
/// CSV.swift is not used for the split: its reader decodes through an `AnyIterator<UnicodeScalar>` and
/// builds every cell scalar by scalar, many times slower than this split, which also uses both cores
/// (docs/benchmarks.md). A second pass rather than bounds recorded by the scan: the scan must finish
/// on one core before anything is known to be well-formed, and only a pass after it can use both cores.
/// It stays the grammar of record: the tests compare every table made here with the one its reader makes
/// from the same bytes (`CSVRowsTests`). Its rules, kept exactly: a row ends at CR, LF or CRLF outside
/// quotes; a field is quoted only when its first character is a quote, and a quote elsewhere in an
/// unquoted field is text; a line break inside quotes is kept as it is written; a comma at the end of the
/// file is followed by one empty field; after the last line break there is no row.
enum CSVRows {
    /// The data rows: each kept row's cells (`headers.count` per row) and sheet row number, and the rows
    /// not kept for their number of fields or because they swallow others, without their cells.
    package struct Table {
        package var headers: [String]
        package var cells: CellStore
        package var numbers: [Int]
        package var malformed: [SourceTable.MalformedRow]
    }

    /// Below this many bytes a stretch of rows is not worth a thread of its own.
    static let minimumPartBytes = 1 << 20

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// The header and the rows of `bytes`, which `CSVSyntax.scan(_:parts:splits:)` found well-formed and
    /// marked with `splits`; `start` is where the header starts (after a BOM) and is before the end.
    /// A blank line (one empty field, `""` too) is not a row but is counted. A row is kept when it has
    /// the header's number of fields and is not in `swallowed` (the rows the scan found swallowing
    /// others, with the lines they span); else it is malformed.
    package static func table(
        _ bytes: UnsafeRawBufferPointer, from start: Int, splits: [CSVSyntax.RowStart], swallowed: [Int: ClosedRange<Int>]
    ) -> Table {
        var headers: [String] = []
        var offset = start
        readRow(bytes, at: &offset, end: bytes.count) { fieldStart, fieldEnd, doubled in
            headers.append(text(bytes, fieldStart..<fieldEnd, undoubling: doubled))
        }
        let fieldCount = headers.count
        // Stretches of whole rows, each from a row start the scan marked (the first after the header) to the next.
        let end = splits.last!
        let starts = [CSVSyntax.RowStart(offset: offset, row: 2)] + splits.dropLast().filter { $0.offset > offset }
        // Each stretch reads its kept rows into a store of its own; the first makes room for the whole
        // table (room never written costs no memory), so that the others are appended to it without a copy of it.
        var parts = Parallel.map(starts.count) { index in
            let first = starts[index], next = index + 1 < starts.count ? starts[index + 1] : end
            var part = Table(headers: [], cells: CellStore(), numbers: [], malformed: [])
            let slots = index == 0 ? end.row - first.row : next.row - first.row
            part.cells.reserveCapacity(cells: slots * fieldCount, bytes: (index == 0 ? end.offset : next.offset) - first.offset)
            part.numbers.reserveCapacity(slots)
            rows(bytes, in: first.offset..<next.offset, firstRow: first.row, fieldCount: fieldCount, swallowed: swallowed, into: &part)
            return part
        }
        var table = parts[0]
        parts[0] = Table(headers: [], cells: CellStore(), numbers: [], malformed: [])
        for index in parts.indices.dropFirst() {
            table.cells.append(parts[index].cells, cells: 0..<parts[index].cells.count)
            table.numbers += parts[index].numbers
            table.malformed += parts[index].malformed
            parts[index] = Table(headers: [], cells: CellStore(), numbers: [], malformed: [])
        }
        table.headers = headers
        return table
    }

    /// Reads the rows in `range`, which starts a row outside quotes and ends at one or at the end of the
    /// file; its first row is sheet row `firstRow`. Appends each kept row's cells and number to `part`,
    /// and each malformed row to its `malformed`.
    private static func rows(
        _ bytes: UnsafeRawBufferPointer, in range: Range<Int>, firstRow: Int, fieldCount: Int, swallowed: [Int: ClosedRange<Int>],
        into part: inout Table
    ) {
        var offset = range.lowerBound
        var number = firstRow - 1
        var scratch: [UInt8] = []
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while offset < range.upperBound {
            number += 1
            let rowStart = part.cells.count
            var fields = 0
            var firstEmpty = false
            readRow(bytes, at: &offset, end: range.upperBound) { fieldStart, fieldEnd, doubled in
                if fields == 0 { firstEmpty = fieldStart == fieldEnd }
                // Cells past the header's count are counted, not kept: the row is malformed anyway.
                if fields < fieldCount {
                    if doubled {
                        undouble(base, fieldStart..<fieldEnd, into: &scratch)
                        scratch.withUnsafeBufferPointer { part.cells.append($0) }
                    } else {
                        part.cells.append(UnsafeBufferPointer(start: base + fieldStart, count: fieldEnd - fieldStart))
                    }
                }
                fields += 1
            }
            let swallowedLines = swallowed.isEmpty ? nil : swallowed[number]
            if fields == fieldCount, swallowedLines == nil, !(fields == 1 && firstEmpty) {
                part.numbers.append(number)
                continue
            }
            part.cells.removeLast(part.cells.count - rowStart)
            // A blank line reads as one empty field; it is not a row.
            if fields == 1, firstEmpty { continue }
            part.malformed.append(.init(number: number, fieldCount: fields, swallowedLines: swallowedLines))
        }
    }

    /// Reads one row starting at `offset` (outside quotes, before `end`), handing the bounds of each field's
    /// text to `field` in order (with whether it holds doubled quotes), and leaves `offset` at the start of
    /// the next row.
    @inline(__always)
    private static func readRow(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int, end: Int, field: (_ start: Int, _ end: Int, _ doubled: Bool) -> Void
    ) {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while true {
            if offset < end, base[offset] == quote {
                // A quoted field: up to the quote that is not doubled (the scan found one before `end`).
                let start = offset + 1
                var position = start
                var doubled = false
                while true {
                    position = UnsafeRawPointer(memchr(base + position, Int32(quote), end - position)!) - UnsafeRawPointer(base)
                    guard position + 1 < end, base[position + 1] == quote else { break }
                    doubled = true
                    position += 2
                }
                field(start, position, doubled)
                offset = position + 1
            } else {
                let start = offset
                while offset < end {
                    let byte = base[offset]
                    // One comparison for most bytes: letters, digits and UTF-8 sequences are all above the comma.
                    if byte <= comma, byte == comma || byte == cr || byte == lf { break }
                    offset += 1
                }
                field(start, offset, false)
            }
            // After a field: a comma, a line break or the end (the scan allows nothing else after a closing quote).
            guard offset < end else { return }
            let byte = base[offset]
            offset += 1
            if byte == comma { continue }
            if byte == cr, offset < end, base[offset] == lf { offset += 1 }
            return
        }
    }

    /// The text of the bytes in `range` (well-formed UTF-8, as the scan checked); with `undoubling`, each `""` read as `"`.
    @inline(__always)
    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, undoubling: Bool) -> String {
        if range.isEmpty { return "" }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard undoubling else { return String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self) }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            var written = 0
            var offset = range.lowerBound
            while offset < range.upperBound {
                let byte = base[offset]
                buffer[written] = byte
                written += 1
                offset += byte == quote ? 2 : 1
            }
            return written
        }
    }

    /// The bytes in `range` with each `""` read as `"`, in `scratch`.
    private static func undouble(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, into scratch: inout [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let byte = base[offset]
            scratch.append(byte)
            offset += byte == quote ? 2 : 1
        }
    }
}
