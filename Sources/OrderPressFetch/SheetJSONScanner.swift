import Foundation
import OrderPressSupport

/// The fast path for a SheetDB-shaped JSON body: one pass over the bytes straight into a
/// `SourceTable`'s cells. JSONSerialization builds an NSDictionary of NSStrings per row (gigabytes for a
/// million rows, and most of the fetch step's time); Foundation has no streaming reader, and
/// JSONDecoder into `[String: Cell]` would still build a dictionary per row and cannot give a number's
/// text as JSONSerialization writes it. So this scanner is deliberately narrow: it reads only what a
/// sheet is — one array of flat objects whose values are strings, numbers, `true`, `false` or `null`,
/// UTF-8 without a BOM, each key once per object, no two keys that normalise alike — and returns nil
/// for anything else, however valid, so that `SheetParser` falls back on JSONSerialization, which then
/// decides with the same results and errors as ever. It never has to agree with JSONSerialization on
/// what is wrong, only on what a well-formed sheet says: a number's text is its exact decimal (`JSONNumberText`,
/// on both paths), and `SheetJSONScannerTests` compares both on hostile bodies.
struct SheetJSONScanner {
    /// Distinct keys a sheet may have before the fast path gives up (each new key re-lays the cells).
    static let maxKeys = 512
    /// From this size on, a body is read in two halves at once (see `halves`): below it, a second thread
    /// costs more than it saves.
    static let minimumSplitSize = 1 << 20

    /// The table of `data`, or nil when it is not plainly a sheet (see the type's comment).
    /// `splitNear`: where to look for a row to start the second half at; nil reads the body in one pass.
    package static func table(_ data: Data, source: String, splitNear: Int? = nil) -> SourceTable? {
        let splitNear = splitNear ?? (data.count >= minimumSplitSize && ProcessInfo.processInfo.activeProcessorCount > 1 ? data.count / 2 : nil)
        return data.withUnsafeBytes { raw -> SourceTable? in
            if let splitNear, let cut = rowStart(in: raw, from: splitNear) {
                return halves(raw, cut: cut).map { SourceTable(name: source, headers: $0.headers, store: $0.cells, numbers: Array(2..<(2 + $0.rows))) }
            }
            var scanner = SheetJSONScanner(bytes: raw)
            guard scanner.scanDocument(stoppingAt: nil) == .read else { return nil }
            return SourceTable(name: source, headers: scanner.headers, store: scanner.cells, numbers: Array(2..<(2 + scanner.rowCount)))
        }
    }

    /// What `scanDocument` came to.
    private enum Outcome: Equatable {
        case read, notASheet
        /// A row starts at the offset it was asked to stop at.
        case stopped
    }

    /// The first place at or after `from` that looks like the start of a row: `{` after `}` and a comma.
    /// It may be inside a string: only the first half's scan, reaching it at a row's start, confirms it.
    private static func rowStart(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        var index = max(from, 0)
        func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "}") else {
                index += 1
                continue
            }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { continue }
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") { return index }
        }
        return nil
    }

    /// A body's headers, cells row after row, and how many rows.
    private typealias Scanned = (headers: [String], cells: CellStore, rows: Int)

    /// The body read in two halves on two threads, from the start up to the row at `cut` and from `cut` to
    /// the end, joined as one pass would have read them; nil when it is not plainly a sheet. When the first
    /// half's scan does not meet a row's start at `cut` (`cut` was inside a string), it reads on to the end
    /// as one pass, and the second half's work is dropped.
    private static func halves(_ bytes: UnsafeRawBufferPointer, cut: Int) -> Scanned? {
        final class Work: @unchecked Sendable {
            // Each thread touches only its own scanner and outcome until both are done.
            var first, second: SheetJSONScanner
            var firstOutcome = Outcome.notASheet, secondOutcome = Outcome.notASheet
            init(_ bytes: UnsafeRawBufferPointer, cut: Int) {
                first = SheetJSONScanner(bytes: bytes)
                second = SheetJSONScanner(bytes: bytes, from: cut)
            }
        }
        let work = Work(bytes, cut: cut)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            if half == 0 {
                work.firstOutcome = work.first.scanDocument(stoppingAt: cut)
            } else {
                work.secondOutcome = work.second.scanRows(stoppingAt: nil)
            }
        }
        switch work.firstOutcome {
        case .read: return (work.first.headers, work.first.cells, work.first.rowCount)
        case .notASheet: return nil
        // One pass would have gone on from `cut` as the second scan did, and given up where it gave up.
        case .stopped: return work.secondOutcome == .read ? joined(&work.first, work.second) : nil
        }
    }

    /// The rows of `first` then those of `second`, in the columns of both; nil where one pass, meeting the
    /// keys of both, would have given up: too many keys, or two keys that normalise alike.
    private static func joined(_ first: inout SheetJSONScanner, _ second: SheetJSONScanner) -> Scanned? {
        var keyOfHeader: [String: [UInt8]] = [:]
        func alike(_ keys: [[UInt8]], _ headers: [String], _ columnOfKey: [Int]) -> Bool {
            for (key, text) in keys.enumerated() {
                let header = headers[columnOfKey[key]]
                if let known = keyOfHeader.updateValue(text, forKey: header), known != text { return true }
            }
            return false
        }
        guard !alike(first.keyText, first.headers, first.columnOfKey), !alike(second.keyText, second.headers, second.columnOfKey),
            Set(first.keyText + second.keyText).count <= maxKeys
        else { return nil }
        let rows = first.rowCount + second.rowCount
        if first.headers == second.headers {
            first.cells.reserveCapacity(cells: second.cells.count, bytes: second.cells.bytes.count)
            first.cells.append(second.cells, cells: 0..<second.cells.count)
            return (first.headers, first.cells, rows)
        }
        // Other columns in each half (rare): every row laid again into the columns of both.
        let headers = Set(first.headers + second.headers).sorted()
        var cells = CellStore()
        for (scannedHeaders, scannedCells, scannedRows) in [(first.headers, first.cells, first.rowCount), (second.headers, second.cells, second.rowCount)] {
            let index = Dictionary(uniqueKeysWithValues: scannedHeaders.enumerated().map { ($1, $0) })
            let sources = headers.map { index[$0] }
            for scannedRow in 0..<scannedRows {
                for source in sources {
                    if let source {
                        let cell = scannedRow * scannedHeaders.count + source
                        cells.append(scannedCells, cells: cell..<(cell + 1))
                    } else {
                        cells.appendEmpty()
                    }
                }
            }
        }
        return (headers, cells, rows)
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    /// Sorted normalised headers, and each key's column (keys numbered as first met).
    package private(set) var headers: [String] = []
    private var keyText: [[UInt8]] = []
    private var keyLookup: [[UInt8]: Int] = [:]
    private var columnOfKey: [Int] = []
    /// The last row each key was set in, to catch a key repeated within an object.
    private var keyRow: [Int] = []
    /// Keys in the order the previous row wrote them: rows of a sheet almost always repeat it, so a
    /// key is usually found by one comparison of bytes instead of a hash lookup.
    private var previousOrder: [Int] = []
    private var currentOrder: [Int] = []
    package private(set) var cells = CellStore()
    private(set) var rowCount = 0
    private var scratch: [UInt8] = []
    /// The row being read: where each column's value is (an empty range for a key it lacks), in the body
    /// for a string as written or else in `rowBytes`, the values made (decoded escapes, numbers, literals);
    /// stored in column order when the row ends.
    private var rowBytes: [UInt8] = []
    private var rowValues: [(range: Range<Int>, inBody: Bool)] = []

    /// Where this scan started: the second half of a body starts at a row.
    private let start: Int

    private init(bytes: UnsafeRawBufferPointer, from start: Int = 0) {
        self.bytes = bytes
        self.start = start
        offset = start
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    @inline(__always) private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after whitespace) if it is next.
    @inline(__always) private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// The whole body, or up to the row that starts at `stop`.
    private mutating func scanDocument(stoppingAt stop: Int?) -> Outcome {
        guard take(UInt8(ascii: "[")) else { return .notASheet }
        if take(UInt8(ascii: "]")) {
            skipWhitespace()
            return offset == bytes.count ? .read : .notASheet
        }
        return scanRows(stoppingAt: stop)
    }

    /// The rows from here to the end of the array and the body, or up to the row that starts at `stop`.
    private mutating func scanRows(stoppingAt stop: Int?) -> Outcome {
        repeat {
            skipWhitespace()
            if offset == stop { return .stopped }
            guard take(UInt8(ascii: "{")), scanObject() else { return .notASheet }
            if rowCount == 1 { reserveRows() }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return .notASheet }
        skipWhitespace()
        return offset == bytes.count ? .read : .notASheet
    }

    /// After the first row, room for as many rows as the body seems to hold and half as many again, so
    /// that the cells of a large sheet are not copied as the array grows (a doubling at the end would
    /// hold both copies at once). Capacity never written is never touched, so it costs no memory.
    private mutating func reserveRows() {
        let estimate = (bytes.count - start) / max(offset - start, 1) * 3 / 2 + 1
        cells.reserveCapacity(cells: min(estimate, 20_000_000) * max(headers.count, 1), bytes: bytes.count - start)
    }

    /// One row object, its opening brace already read.
    private mutating func scanObject() -> Bool {
        let row = rowCount
        rowCount += 1
        rowBytes.removeAll(keepingCapacity: true)
        rowValues.removeAll(keepingCapacity: true)
        rowValues.append(contentsOf: repeatElement((range: 0..<0, inBody: false), count: headers.count))
        swap(&previousOrder, &currentOrder)
        currentOrder.removeAll(keepingCapacity: true)
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard take(Self.quote), let key = scanKey(position: currentOrder.count) else { return false }
                guard keyRow[key] != row else { return false }  // a key twice in one object
                keyRow[key] = row
                currentOrder.append(key)
                guard take(UInt8(ascii: ":")), let value = scanValue() else { return false }
                rowValues[columnOfKey[key]] = value
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
        }
        let body = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        rowBytes.withUnsafeBufferPointer { made in
            for value in rowValues { cells.append(UnsafeBufferPointer(rebasing: (value.inBody ? body : made)[value.range])) }
        }
        return true
    }

    /// The number of the key whose string starts here (opening quote read), adding a column for a new one.
    private mutating func scanKey(position: Int) -> Int? {
        if position < previousOrder.count {
            let expected = previousOrder[position]
            // The bytes of the key the previous row wrote here, then a quote: that key, without walking the
            // string first. Its bytes are the whole of a string already read, so the quote after them ends
            // this one as it ended that one. memcmp: the generic `elementsEqual` went byte by byte through an
            // iterator, for every key of every row.
            let length = keyText[expected].count
            let end = offset + length
            if end < bytes.count, bytes[end] == Self.quote,
                keyText[expected].withUnsafeBytes({ length == 0 || memcmp($0.baseAddress!, bytes.baseAddress! + offset, length) == 0 })
            {
                offset = end + 1
                return expected
            }
        }
        let start = offset
        guard let hasEscapes = skipString() else { return nil }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<(offset - 1)])
        let rawKey = [UInt8](raw)
        if let known = keyLookup[rawKey] { return known }
        guard keyText.count < Self.maxKeys, let text = hasEscapes ? unescaped(raw) : Optional(String(decoding: raw, as: UTF8.self)) else { return nil }
        return addColumn(rawKey, header: Text.normalize(text))
    }

    /// A new key's column, at its sorted place among the headers; every row read so far gets an empty cell there.
    private mutating func addColumn(_ rawKey: [UInt8], header: String) -> Int? {
        // Two keys that normalise alike ("note", "note" with a zero-width space) need the rule of
        // `SheetParser.table` for which one is read: the slow path has it.
        guard !headers.contains(header) else { return nil }
        let column = headers.firstIndex { header < $0 } ?? headers.count
        let oldWidth = headers.count
        headers.insert(header, at: column)
        // The rows stored so far (all but the one being read) and the one being read get an empty cell there.
        let stored = rowCount - 1
        if stored > 0 {
            var widened = CellStore()
            widened.reserveCapacity(cells: stored * headers.count, bytes: cells.bytes.count)
            for row in 0..<stored {
                let start = row * oldWidth
                widened.append(cells, cells: start..<(start + column))
                widened.appendEmpty()
                widened.append(cells, cells: (start + column)..<(start + oldWidth))
            }
            cells = widened
        }
        rowValues.insert((range: 0..<0, inBody: false), at: column)
        for key in columnOfKey.indices where columnOfKey[key] >= column { columnOfKey[key] += 1 }
        let key = keyText.count
        keyText.append(rawKey)
        keyLookup[rawKey] = key
        columnOfKey.append(column)
        keyRow.append(-1)
        return key
    }

    /// Where the text of a value that a cell can hold is: a string as written in the body, else made in
    /// `rowBytes`; nil for a list, an object or anything unexpected.
    private mutating func scanValue() -> (range: Range<Int>, inBody: Bool)? {
        skipWhitespace()
        guard offset < bytes.count else { return nil }
        let text: String?
        switch bytes[offset] {
        case Self.quote:
            offset += 1
            let start = offset
            guard let hasEscapes = skipString() else { return nil }
            guard hasEscapes else { return (start..<(offset - 1), true) }
            let made = rowBytes.count
            guard Self.unescaped(UnsafeRawBufferPointer(rebasing: bytes[start..<(offset - 1)]), into: &rowBytes) else { return nil }
            return (made..<rowBytes.count, false)
        case UInt8(ascii: "n"): text = literal("null", "")
        case UInt8(ascii: "t"): text = literal("true", "TRUE")
        case UInt8(ascii: "f"): text = literal("false", "FALSE")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = offset
            while offset < bytes.count, Self.isNumberByte(bytes[offset]) { offset += 1 }
            text = Self.numberText(UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
        default:
            return nil
        }
        guard let text else { return nil }
        let made = rowBytes.count
        rowBytes.append(contentsOf: text.utf8)
        return (made..<rowBytes.count, false)
    }

    private mutating func literal(_ word: StaticString, _ text: String) -> String? {
        let length = word.utf8CodeUnitCount
        guard offset + length <= bytes.count else { return nil }
        let matches = word.withUTF8Buffer { UnsafeRawBufferPointer($0).elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])) }
        guard matches else { return nil }
        offset += length
        return text
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return true
        default: return false
        }
    }

    /// A number cell reads as its exact decimal text (`JSONNumberText`), as the slow path reads it too;
    /// nil for a token that is not a JSON number, which the slow path then refuses.
    private static func numberText(_ token: UnsafeRawBufferPointer) -> String? {
        JSONNumberText.canonical(token)
    }

    /// Moves past a string whose opening quote is read, to just after its closing quote. Returns whether
    /// it holds escapes, or nil when it is not a plain JSON string of well-formed UTF-8.
    private mutating func skipString() -> Bool? {
        var hasEscapes = false
        // Locals, stored back on the way out: the loop runs over every byte of every cell, and
        // `self.offset` written each time stayed in memory.
        let bytes = bytes
        var offset = offset
        defer { self.offset = offset }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == Self.quote {
                offset += 1
                return hasEscapes
            }
            if byte == Self.backslash {
                hasEscapes = true
                offset += 2  // the escape's letter is checked when the string is decoded
                continue
            }
            if byte < 0x20 { return nil }  // a raw control character: JSON forbids it
            if byte < 0x80 {
                offset += 1
                continue
            }
            guard let length = UTF8Check.sequenceLength(bytes, at: offset) else { return nil }
            offset += length
        }
        return nil
    }

    /// The text of a string's contents (between the quotes) with its escapes decoded; nil for an unknown
    /// escape or a surrogate that is not part of a pair.
    private mutating func unescaped(_ raw: UnsafeRawBufferPointer) -> String? {
        scratch.removeAll(keepingCapacity: true)
        guard Self.unescaped(raw, into: &scratch) else { return nil }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The bytes of a string's contents with its escapes decoded, added to `scratch`; false for an unknown
    /// escape or a surrogate that is not part of a pair.
    private static func unescaped(_ raw: UnsafeRawBufferPointer, into scratch: inout [UInt8]) -> Bool {
        var index = 0
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            var value: UInt32 = 0
            for byte in raw[at..<(at + 4)] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == Self.backslash else {
                scratch.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return false }
            let letter = raw[index + 1]
            index += 2
            switch letter {
            case Self.quote, Self.backslash, UInt8(ascii: "/"): scratch.append(letter)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                guard var value = hex(index) else { return false }
                index += 4
                if (0xD800...0xDBFF).contains(value) {
                    guard index + 6 <= raw.count, raw[index] == Self.backslash, raw[index + 1] == UInt8(ascii: "u"),
                        let low = hex(index + 2), (0xDC00...0xDFFF).contains(low)
                    else { return false }
                    index += 6
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(value) {
                    return false
                }
                guard let scalar = Unicode.Scalar(value) else { return false }
                scratch.append(contentsOf: String(Character(scalar)).utf8)
            default:
                return false
            }
        }
        return true
    }
}
