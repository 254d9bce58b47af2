import Foundation
import OrderPressSupport

/// Turns the bytes of a sheet (SheetDB-shaped JSON, or CSV with a header row) into a `SourceTable`.
enum SheetParser {
    enum Format: String {
        case json, csv
    }

    static func parse(_ data: Data, format: Format, source: String) throws(SourceError) -> SourceTable {
        switch format {
        case .json: return try parseJSON(data, source: source)
        case .csv: return try parseCSV(data, source: source)
        }
    }

    /// An array of objects whose values are strings (SheetDB's default) or numbers (`cast_numbers`).
    /// A plain sheet takes the fast path (`SheetJSONScanner`); anything it does not read, JSONSerialization does.
    static func parseJSON(_ data: Data, source: String) throws(SourceError) -> SourceTable {
        var parsed: SourceTable
        if let scanned = SheetJSONScanner.table(data, source: source) {
            parsed = scanned
        } else {
            parsed = try table(rows: try jsonArray(data, source: source), source: source)
        }
        parsed.sheetOrder = JSONKeyOrder.of(data)
        return parsed
    }

    /// The elements of a JSON array, such as one page of a SheetDB sheet; anything else is an error,
    /// never an empty sheet.
    /// `firstRow` is the sheet row of the array's first element (a later page of a paged sheet starts further down).
    static func jsonArray(_ data: Data, source: String, firstRow: Int = 2) throws(SourceError) -> [Any] {
        let object: Any
        do {
            // Numbers as strings of their exact digits first: JSONSerialization would read them through Double.
            object = try JSONSerialization.jsonObject(with: JSONNumberText.quotingNumbers(data), options: [.fragmentsAllowed])
        } catch {
            // Only a body that failed to parse is scanned again, to name the row of a bad byte.
            if let row = invalidUTF8Row(inJSON: data, firstRow: firstRow) {
                throw SourceError(source: source, message: "\(row) is not valid UTF-8; the sheet must be sent as UTF-8")
            }
            throw SourceError(source: source, message: "is not valid JSON (\(describe(data))); expected an array of row objects")
        }
        guard let array = object as? [Any] else {
            let found = object is [String: Any] ? "an object" : "a single value"
            throw SourceError(source: source, message: "expected a JSON array of row objects, found \(found)")
        }
        return array
    }

    /// Where the first byte that is not UTF-8 is ("row 7", the 6th object of the array), or nil when
    /// there is none. JSONSerialization would only say "not in the correct format" at a character offset.
    private static func invalidUTF8Row(inJSON data: Data, firstRow: Int) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            guard let invalid = UTF8Check.firstInvalidOffset(bytes) else { return nil }
            var depth = 0
            var objects = 0
            var inString = false
            var escaped = false
            for byte in bytes[..<invalid] {
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "{"):
                    depth += 1
                    if depth == 2 { objects += 1 }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            return objects == 0 ? "the text before the first row" : "row \(firstRow + objects - 1)"
        }
    }

    /// The table of a sheet's rows, in sheet order: the first element is sheet row 2. Keys are
    /// normalised like every text, so that "edit\u{200B}Code" is the `editCode` column; when two keys
    /// of a row normalise alike, the one already normal is read, else the first in code-point order.
    package static func table(rows array: [Any], source: String) throws(SourceError) -> SourceTable {
        var objects: [[String: Any]] = []
        objects.reserveCapacity(array.count)
        var keySet = Set<String>()
        for (position, element) in array.enumerated() {
            guard let row = element as? [String: Any] else {
                throw SourceError(source: source, message: "row \(position + 2) is not an object; expected an array of row objects")
            }
            for key in row.keys where !keySet.contains(key) { keySet.insert(key) }
            objects.append(row)
        }
        var keysByHeader: [String: [String]] = [:]
        for key in keySet.sorted() { keysByHeader[Text.normalize(key), default: []].append(key) }
        // The key written exactly as its name is read first: "note" before "note" with a zero-width
        // space, whatever their code-point order, so that a look-alike cannot displace the real column.
        for (header, candidates) in keysByHeader where candidates.count > 1 {
            keysByHeader[header] = candidates.filter { $0 == header } + candidates.filter { $0 != header }
        }
        // JSON objects carry no column order; sort so that the result never depends on hashing.
        let headers = keysByHeader.keys.sorted()
        let keys = headers.map { keysByHeader[$0]! }
        var cells: [String] = []
        cells.reserveCapacity(objects.count * headers.count)
        for (position, object) in objects.enumerated() {
            let number = position + 2
            for (header, candidates) in zip(headers, keys) {
                guard let value = candidates.count == 1 ? object[candidates[0]] : candidates.lazy.compactMap({ object[$0] }).first else {
                    cells.append("")
                    continue
                }
                guard let text = cellText(value) else {
                    throw SourceError(source: source, message: "row \(number), column '\(header)' holds a list or an object; expected text or a number")
                }
                cells.append(text)
            }
        }
        return SourceTable(name: source, headers: headers, cells: cells, numbers: Array(2..<(2 + objects.count)))
    }

    static func cellText(_ value: Any) -> String? {
        switch value {
        case let string as String:
            return string
        case is NSNull:
            return ""
        case let number as NSNumber:
            if let bool = boolean(number) { return bool ? "TRUE" : "FALSE" }
            // The shortest text that reads back the same number: for any literal of up to
            // 15 significant digits, the literal itself.
            return number.stringValue
        default:
            return nil
        }
    }

    /// The value of a JSON `true` or `false`, nil for a number. Not `as? Bool`: on Linux a JSON `1`
    /// or `0` casts to Bool too (and a quantity of 1 became "TRUE").
    static func boolean(_ number: NSNumber) -> Bool? {
        String(cString: number.objCType) == "c" ? number.boolValue : nil
    }

    /// RFC 4180 CSV with a header row; quoted fields, embedded commas and newlines, CRLF, BOM.
    /// A row with more or fewer fields than the header is kept as malformed, without its cells.
    /// `CSVSyntax` checks the bytes first (CSV.swift's reader accepts broken quoting silently); `CSVRows`
    /// then splits them into cells, a large sheet in one stretch of whole rows per core. CSV.swift's reader
    /// is the grammar both follow and the tests' reference (`CSVRowsTests`), too slow to read with (see `CSVRows`).
    static func parseCSV(_ data: Data, source: String) throws(SourceError) -> SourceTable {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, data.count / CSVRows.minimumPartBytes))
        // `withUnsafeBytes` rethrows untyped errors: the failure comes out as a value.
        let parsed = data.withUnsafeBytes { bytes -> Result<SourceTable, SourceError> in
            var splits: [CSVSyntax.RowStart] = []
            let scan = CSVSyntax.scan(bytes, parts: parts, splits: &splits)
            if let problem = scan.problem {
                return .failure(SourceError(source: source, message: problem.message))
            }
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            guard start < bytes.count else {
                return .failure(SourceError(source: source, message: "has no header row; the first line must name the columns"))
            }
            // Rows that swallow others are rejected whole, whatever their number of fields (see `CSVSyntax`).
            let swallowed = Dictionary(scan.swallowed.map { ($0.row, $0.lines) }, uniquingKeysWith: { first, _ in first })
            let rows = CSVRows.table(bytes, from: start, splits: splits, swallowed: swallowed)
            var table = SourceTable(
                name: source, headers: rows.headers.map { Text.normalize($0) }, store: rows.cells, numbers: rows.numbers,
                malformed: rows.malformed)
            table.fromCSV = true
            return .success(table)
        }
        return try parsed.get()
    }

    /// Names what a non-JSON body looks like, without echoing it (it could hold secrets).
    private static func describe(_ data: Data) -> String {
        if data.isEmpty { return "the body is empty" }
        let start = data.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        if start.first == UInt8(ascii: "<") { return "it looks like an HTML or XML page" }
        if start.first == UInt8(ascii: "[") || start.first == UInt8(ascii: "{") { return "it is cut short or malformed" }
        return "\(data.count) bytes of something else"
    }
}
