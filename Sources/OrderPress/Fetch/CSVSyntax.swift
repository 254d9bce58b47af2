/// The strict RFC 4180 check that CSV.swift does not make. Its reader takes a quoted field that never
/// closes to the end of the file (the rest of the sheet silently becomes one cell), drops the character
/// after a stray closing quote, and stops at the first invalid UTF-8 byte as if the file ended there.
/// So the bytes are checked first, with the same row numbering as the reader (the header is row 1;
/// CR, LF and CRLF end a row outside quotes), and the reader only ever sees well-formed CSV.
enum CSVSyntax {
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

    /// The first problem in `bytes`, or nil when the whole file is well-formed.
    static func check(_ bytes: UnsafeRawBufferPointer) -> Problem? {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var row = 1
        var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var atFieldStart = true
        var quotedSince: Int?  // the row where the open quoted field began
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte >= 0x80 {
                guard let length = UTF8Check.sequenceLength(bytes, at: offset) else { return .invalidUTF8(row: quotedSince ?? row) }
                offset += length
                atFieldStart = false
                continue
            }
            offset += 1
            if let opened = quotedSince {
                guard byte == quote else { continue }
                if offset < bytes.count, bytes[offset] == quote {
                    offset += 1  // "" inside a quoted field
                    continue
                }
                let next = offset < bytes.count ? bytes[offset] : comma
                guard next == comma || next == cr || next == lf else { return .textAfterQuote(row: opened) }
                quotedSince = nil
                atFieldStart = false
                continue
            }
            switch byte {
            case quote where atFieldStart:
                quotedSince = row
                atFieldStart = false
            case comma:
                atFieldStart = true
            case cr, lf:
                if byte == cr, offset < bytes.count, bytes[offset] == lf { offset += 1 }
                row += 1
                atFieldStart = true
            default:
                atFieldStart = false
            }
        }
        if let opened = quotedSince { return .unclosedQuote(row: opened) }
        return nil
    }
}
