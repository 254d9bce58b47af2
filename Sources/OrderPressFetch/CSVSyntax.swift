/// The strict RFC 4180 check that CSV.swift does not make. Its reader takes a quoted field that never
/// closes to the end of the file (the rest of the sheet silently becomes one cell), drops the character
/// after a stray closing quote, and stops at the first invalid UTF-8 byte as if the file ended there.
/// So the bytes are checked first, with the same row numbering as the reader (the header is row 1;
/// CR, LF and CRLF end a row outside quotes), and the reader only ever sees well-formed CSV.
///
/// Well-formed is not enough: one stray quote at the start of a cell and another at the end of a cell
/// some lines further down make valid CSV in which everything between them is one quoted cell — the
/// rest of the row (an edit code among it) and whole rows after it. The row still has the header's
/// number of fields. So the same pass notes each row whose quoted cells hold a line break, and such a
/// row is `swallowed` when two of its lines, or one line of a quoted cell's text, hold a whole row's
/// separators (see `swallowedRows`).
package enum CSVSyntax {
    enum Problem: Equatable {
        /// A quoted field opened in `row` and never closed.
        case unclosedQuote(row: Int)
        /// Text follows the closing quote of a field in `row` (`"ab"c`).
        case textAfterQuote(row: Int)
        /// A byte that is not UTF-8 in `row`.
        case invalidUTF8(row: Int)

        var message: String {
            switch self {
            case .unclosedQuote(let row):
                return "row \(row) opens a quoted field that never closes, so the rest of the file cannot be read; close the quote or double it (\"\") inside the field"
            case .textAfterQuote(let row):
                return "row \(row) has a quoted field followed by text after its closing quote, or missing its closing quote; quote the whole field and double the quotes inside it (\"\")"
            case .invalidUTF8(let row):
                return "row \(row) is not valid UTF-8; save the file as UTF-8"
            }
        }
    }

    /// A row that reads as one row but spans lines that each look like a row of their own.
    package struct Swallowed: Equatable {
        /// The row (the header is row 1), as the reader numbers it.
        package var row: Int
        /// The lines of the file it spans (the header is line 1).
        var lines: ClosedRange<Int>
    }

    /// What a pass over the bytes found: the first problem, or the rows that swallow others.
    struct Scan: Equatable {
        var problem: Problem?
        package var swallowed: [Swallowed] = []
    }

    /// A place where a row starts outside quotes: its byte offset and its row number (the header is row 1).
    package struct RowStart: Equatable {
        var offset: Int
        package var row: Int
    }

    /// One pass over the bytes: the first problem, else every row whose quoted line breaks hide whole rows.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> Scan {
        var splits: [RowStart] = []
        return scan(bytes, parts: 1, splits: &splits)
    }

    /// `scan(_:)`, noting in `splits` where the bytes can be cut into `parts` stretches of whole rows, so
    /// that they can be split into cells on several threads (only this pass knows where quotes are): the
    /// row start where each stretch after the first begins (the first at or after `count * k / parts`
    /// bytes), then the end of the file with the number the row after the last would have.
    static func scan(_ bytes: UnsafeRawBufferPointer, parts: Int, splits: inout [RowStart]) -> Scan {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var row = 1
        var line = 1
        var headerFields = 1
        var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var atFieldStart = true
        var quotedSince: Int?  // the row where the open quoted field began
        // The row being read: where it starts, on which line, and whether a quoted cell of it holds a line break.
        var rowStart = offset, rowLine = 1, rowBreaks = false
        var multiLine: [(row: Int, bytes: Range<Int>, line: Int)] = []
        splits = []
        var nextSplit = parts > 1 ? bytes.count / parts : Int.max
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte >= 0x80 {
                guard let length = UTF8Check.sequenceLength(bytes, at: offset) else { return Scan(problem: .invalidUTF8(row: quotedSince ?? row)) }
                offset += length
                atFieldStart = false
                continue
            }
            offset += 1
            if let opened = quotedSince {
                guard byte == quote else {
                    // A line break inside a quoted cell: CR, LF or CRLF, counted once.
                    if byte == lf || byte == cr, !(byte == cr && offset < bytes.count && bytes[offset] == lf) {
                        line += 1
                        rowBreaks = true
                    }
                    continue
                }
                if offset < bytes.count, bytes[offset] == quote {
                    offset += 1  // "" inside a quoted field
                    continue
                }
                let next = offset < bytes.count ? bytes[offset] : comma
                guard next == comma || next == cr || next == lf else { return Scan(problem: .textAfterQuote(row: opened)) }
                quotedSince = nil
                atFieldStart = false
                continue
            }
            switch byte {
            case quote where atFieldStart:
                quotedSince = row
                atFieldStart = false
            case comma:
                if row == 1 { headerFields += 1 }
                atFieldStart = true
            case cr, lf:
                if rowBreaks { multiLine.append((row, rowStart..<(offset - 1), rowLine)) }
                if byte == cr, offset < bytes.count, bytes[offset] == lf { offset += 1 }
                row += 1
                line += 1
                atFieldStart = true
                (rowStart, rowLine, rowBreaks) = (offset, line, false)
                if offset >= nextSplit {
                    splits.append(RowStart(offset: offset, row: row))
                    nextSplit = splits.count + 1 < parts ? bytes.count * (splits.count + 1) / parts : Int.max
                }
            default:
                atFieldStart = false
            }
        }
        if let opened = quotedSince { return Scan(problem: .unclosedQuote(row: opened)) }
        if rowBreaks { multiLine.append((row, rowStart..<bytes.count, rowLine)) }
        splits.append(RowStart(offset: bytes.count, row: bytes.count > rowStart ? row + 1 : row))
        return Scan(problem: nil, swallowed: swallowedRows(multiLine, in: bytes, fieldCount: headerFields))
    }

    /// The rows, of those whose quoted cells hold line breaks, that could hide another row. Either of two
    /// signs, each a line holding at least as many commas as a row has separators (the header's fields less
    /// one) — what a row typed or pasted by itself holds:
    /// - two lines of the row each hold them, counted whether quoted or not. In
    ///   `…,35,"no straw,TRUE,SECRET` + `2,G,Ben,…,please",FALSE,CODE` both lines are whole rows, while a
    ///   real note with a line break would need that many commas in its own text (its first line holds the
    ///   separators before the note, its last line those after it);
    /// - one line of a quoted cell's text holds them, the cell spanning lines. A row pasted into a real
    ///   multi-line note (`…,"no straw` + `2,G,Ben,…,CODE` + `please",FALSE,CODE`) is one whole line inside
    ///   the note whatever the lines around it hold, and any number of pasted rows is that many such lines.
    /// A note line with that many commas of its own is rejected too: its row is named, and one person
    /// retyping a note costs less than another's edit code on a page.
    static func swallowedRows(_ rows: [(row: Int, bytes: Range<Int>, line: Int)], in bytes: UnsafeRawBufferPointer, fieldCount: Int) -> [Swallowed] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        let separators = fieldCount - 1
        var swallowed: [Swallowed] = []
        for (row, range, firstLine) in rows {
            var line = firstLine
            var commas = 0
            var wholeRows = 0
            // The quoted cell being read: the commas of its current line, and whether it spans lines.
            var quoted = false, atFieldStart = true, cellCommas = 0, cellBroken = false
            var wholeInCell = false
            var offset = range.lowerBound
            while offset < range.upperBound {
                let byte = bytes[offset]
                offset += 1
                if byte == comma {
                    commas += 1
                    if quoted { cellCommas += 1 } else { atFieldStart = true }
                } else if byte == lf || byte == cr {
                    // Inside the row's bytes a line break is always inside a quoted cell.
                    if byte == cr, offset < range.upperBound, bytes[offset] == lf { offset += 1 }
                    if commas >= separators { wholeRows += 1 }
                    if cellCommas >= separators { wholeInCell = true }
                    commas = 0
                    cellCommas = 0
                    cellBroken = true
                    line += 1
                } else if byte == quote {
                    if !quoted {
                        if atFieldStart { (quoted, cellCommas, cellBroken) = (true, 0, false) }
                    } else if offset < range.upperBound, bytes[offset] == quote {
                        offset += 1  // "" inside a quoted cell
                    } else {
                        if cellBroken, cellCommas >= separators { wholeInCell = true }
                        quoted = false
                    }
                    atFieldStart = false
                } else if !quoted {
                    atFieldStart = false
                }
            }
            if commas >= separators { wholeRows += 1 }
            if wholeRows >= 2 || wholeInCell { swallowed.append(Swallowed(row: row, lines: firstLine...line)) }
        }
        return swallowed
    }
}
