import CSV
import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
import OrderPressTestSupport

/// `SheetParser.parseCSV` splits cells byte by byte (`CSVRows`); CSV.swift's reader stays the grammar it
/// must follow. Every table it makes is compared with the one the reader makes of the same bytes, cell by
/// cell and byte by byte (a String compares equal to another spelling of the same characters).
@Suite struct CSVRowsTests {
    /// `SheetParser.parseCSV` as it was before `CSVRows`: the same strict scan, then CSV.swift's reader.
    /// It lives here, in the tests, and not in the binary: the build never reads with it (too slow, see
    /// `CSVRows`), so shipping it would only be code that no run exercises.
    static func referenceParse(_ data: Data, source: String) throws(SourceError) -> SourceTable {
        let scan = data.withUnsafeBytes(CSVSyntax.scan)
        if let problem = scan.problem {
            throw SourceError(source: source, message: problem.message)
        }
        let swallowed = Dictionary(scan.swallowed.map { ($0.row, $0.lines) }, uniquingKeysWith: { first, _ in first })
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: InputStream(data: data), codecType: UTF8.self, hasHeaderRow: true)
        } catch {
            throw SourceError(source: source, message: "has no header row; the first line must name the columns")
        }
        guard let headers = reader.headerRow else {
            throw SourceError(source: source, message: "has no header row; the first line must name the columns")
        }
        let normalizedHeaders = headers.map { Text.normalize($0) }
        var cells: [String] = []
        var numbers: [Int] = []
        var malformed: [SourceTable.MalformedRow] = []
        var number = 1
        while let record = reader.next() {
            number += 1
            // A blank line reads as one empty field; it is not a row.
            if record.count == 1, record[0].isEmpty { continue }
            guard record.count == normalizedHeaders.count, swallowed.isEmpty || swallowed[number] == nil else {
                malformed.append(.init(number: number, fieldCount: record.count, swallowedLines: swallowed[number]))
                continue
            }
            cells.append(contentsOf: record)
            numbers.append(number)
        }
        if let error = reader.error {
            throw SourceError(source: source, message: "is not valid CSV at row \(number) (\(error)); check the quoting")
        }
        var table = SourceTable(name: source, headers: normalizedHeaders, cells: cells, numbers: numbers, malformed: malformed)
        table.fromCSV = true
        return table
    }

    /// The table's parts as bytes, so that two spellings of one character differ.
    static func exactly(_ table: SourceTable) -> [[[UInt8]]] {
        [table.headers.map { Array($0.utf8) }, table.rows.flatMap(\.cells).map { Array($0.utf8) }]
    }

    /// What parsing gave: the table, or the error's text.
    static func outcome(_ parse: () throws(SourceError) -> SourceTable) -> Result<SourceTable, SourceError> {
        do throws(SourceError) { return .success(try parse()) } catch { return .failure(error) }
    }

    /// Both parses of `data` agree: the same table, the same bytes in every cell, or the same error.
    static func expectSame(_ data: Data, _ comment: Comment) {
        let fast = outcome { () throws(SourceError) in try SheetParser.parseCSV(data, source: "orders") }
        let reference = outcome { () throws(SourceError) in try referenceParse(data, source: "orders") }
        switch (fast, reference) {
        case (.success(let fast), .success(let reference)):
            #expect(fast == reference, comment)
            #expect(fast.numbers == reference.numbers && exactly(fast) == exactly(reference), comment)
        case (.failure(let fast), .failure(let reference)):
            #expect(fast.description == reference.description, comment)
        default:
            Issue.record("one parse failed, the other did not: \(fast) / \(reference); \(comment)")
        }
    }

    /// Cell text of every kind a sheet holds: commas, quotes (doubled when quoted), line breaks of each
    /// kind, spaces, CJK, emoji, a decomposed accent, NUL, and a stretch that looks like a whole row.
    static let pieces = [
        "a", "35", "9.50", ",", "\"", "\r", "\n", "\r\n", " ", "熟成紅茶", "🧋", "e\u{301}", "é", "\u{0}", "TRUE", "x\"y",
        ",G,Ben,tea,30,,FALSE,CODE2\n2,G", "\u{FEFF}", "\u{200B}",
    ]

    static func cell(_ rng: inout some RandomNumberGenerator) -> String {
        let text = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == 0x0D || $0 == 0x0A } || text.hasPrefix("\"")
        // Quoted when it must be, and now and then when it need not be.
        guard needsQuotes || Int.random(in: 0..<4, using: &rng) == 0 else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A CSV file: a BOM or not, a header of one to five fields, rows of the header's number of fields
    /// and of one or two more or fewer, blank lines and `""` lines, LF, CRLF or CR after each line (the
    /// last one too, or not), and now and then a byte that is not UTF-8 or a stray quote.
    static let files = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
        let fields = Int.random(in: 1...5, using: &rng)
        func line(_ count: Int, _ rng: inout some RandomNumberGenerator) -> String {
            (0..<count).map { _ in cell(&rng) }.joined(separator: ",")
        }
        var lines = [line(fields, &rng)]
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: lines.append("")
            case 1: lines.append("\"\"")
            case 2: lines.append(line(max(1, fields + [-2, -1, 1, 2].randomElement(using: &rng)!), &rng))
            default: lines.append(line(fields, &rng))
            }
        }
        var bytes: [UInt8] = Bool.random(using: &rng) ? [0xEF, 0xBB, 0xBF] : []
        for (index, text) in lines.enumerated() {
            bytes += Array(text.utf8)
            if index < lines.count - 1 || Bool.random(using: &rng) {
                bytes += Array(["\n", "\r\n", "\r"].randomElement(using: &rng)!.utf8)
            }
        }
        switch Int.random(in: 0..<40, using: &rng) {
        case 0: bytes.insert(0xFF, at: Int.random(in: 0...bytes.count, using: &rng))
        case 1: bytes.insert(UInt8(ascii: "\""), at: Int.random(in: 0...bytes.count, using: &rng))
        default: break
        }
        return bytes
    }

    @Test func readsWhatCSVSwiftReads() async {
        await propertyCheck(count: 3000, input: Self.files) { bytes in
            Self.expectSame(Data(bytes), "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(bytes)")
        }
    }

    /// Cut into stretches at any row starts the scan marks (a sheet is cut so only from 1 MB on, one
    /// stretch per core), the rows read the same: numbers, malformed rows and cells in sheet order.
    @Test func readsTheSameInStretches() async {
        let cut = Generator<([UInt8], Int), Shrink.None<([UInt8], Int)>> { rng in
            (Self.files.run(using: &rng), Int.random(in: 2...6, using: &rng))
        }
        await propertyCheck(count: 3000, input: cut) { bytes, parts in
            let data = Data(bytes)
            guard let reference = try? Self.referenceParse(data, source: "orders"), !data.isEmpty else { return }
            let table = data.withUnsafeBytes { bytes in
                var splits: [CSVSyntax.RowStart] = []
                _ = CSVSyntax.scan(bytes, parts: parts, splits: &splits)
                let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
                let swallowed = Dictionary(CSVSyntax.scan(bytes).swallowed.map { ($0.row, $0.lines) }, uniquingKeysWith: { first, _ in first })
                return CSVRows.table(bytes, from: start, splits: splits, swallowed: swallowed)
            }
            let comment: Comment = "\(parts) parts of \(String(decoding: bytes, as: UTF8.self).debugDescription)"
            #expect(table.headers.map(Text.normalize) == reference.headers, comment)
            #expect((0..<table.cells.count).map { table.cells.withUTF8($0) { Array($0) } } == Self.exactly(reference)[1], comment)
            #expect(table.numbers == reference.numbers, comment)
            #expect(table.malformed == reference.malformed, comment)
        }
    }

    /// A sheet large enough to be read on both cores (3 MB: a Form's 13 columns, multi-line and quoted
    /// notes, blank lines and malformed rows among them) reads as CSV.swift reads it.
    @Test func readsALargeSheetAsCSVSwiftDoes() {
        var rng = SplitMix64(seed: 7)
        var text = "Timestamp,Email Address,Name,Group,Drink,Size,Sugar,Ice,Quantity,Price,Note,Paid,Edit code\r\n"
        let notes = ["", "", "\"no straw, please\"", "\"say \"\"hi\"\"\"", "\"line one\r\nline two\"", "🧋 less ice", "請不要加糖"]
        var row = 0
        while text.utf8.count < 3 << 20 {
            row += 1
            switch row % 997 {
            case 0: text += "\r\n"
            case 500: text += "only,three,fields\r\n"
            default:
                let note = notes[Int(rng.next() % UInt64(notes.count))]
                text += "11/21/2026 \(8 + row % 9):\(row % 60):00,user\(rng.next() % 10_000)@example.com,王小明 \(row),週五下午茶,熟成紅茶,L,半糖,少冰,"
                    + "\(1 + rng.next() % 3),35,\(note),TRUE,c\(String(rng.next() % 1_000_000_000, radix: 16))\r\n"
            }
        }
        let data = Data(text.utf8)
        #expect(data.count / CSVRows.minimumPartBytes >= 2)
        Self.expectSame(data, "a large sheet")
    }

    /// Small deterministic cases, each named: where rows end and what a cell holds.
    @Test(arguments: [
        "a,b\n1,2", "a,b\n1,2\n", "a,b\r1,2\r", "a,b\r\n1,2\r\n", "a,b\n1,\n", "a,b\n1,", "a\n\n\n", "a\n\"\"\n1\n",
        "\u{FEFF}a,b\n\"x\"\"\",\"\"\n", "a,b\n\"1\r\n2\",\"3\r4\n5\"\n", "a,b\n5\" pizza,x\"y\n", "\u{FEFF}", "", "\n",
        "a,b,c\n1,2\n1,2,3,4\n", "\"a\",\"b\"", "a,\"\"\"\"\n\"\"\"\",x\n", "a,b\n\u{0},🧋\n",
    ])
    func readsEdgeCasesAsCSVSwiftDoes(_ text: String) {
        Self.expectSame(Data(text.utf8), "\(text.debugDescription)")
    }
}
