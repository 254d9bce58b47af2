import Foundation
import PropertyBased
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// `CSVSyntax.scan` on rows whose quoted cells hold line breaks: a real multi-line note is read as it is;
/// a cell that swallows what look like whole rows makes its row malformed, named with the lines it spans.
@Suite struct CSVSwallowTests {
    static let header = "id,group,orderer,drink,price,note,paid,editCode"

    static func scan(_ text: String) -> CSVSyntax.Scan {
        Data(text.utf8).withUnsafeBytes(CSVSyntax.scan)
    }

    @Test(arguments: [
        // A note over two lines, with commas on each.
        "1,G,Amy,tea,35,\"no straw, less ice\nthanks, really\",TRUE,CODE1\n",
        // A note over three lines, the first cell quoted too, CRLF.
        "\"1\",G,Amy,tea,35,\"a\r\nb, c\r\nd\",TRUE,CODE1\r\n2,G,Ben,tea,30,,FALSE,CODE2\r\n",
        // A multi-line first cell: its last line holds the row's other separators, its first line none.
        "\"1\nx\",G,Amy,tea,35,,TRUE,CODE1\n",
    ])
    func aRealMultiLineCellIsRead(_ body: String) throws {
        let scan = Self.scan(Self.header + "\n" + body)
        #expect(scan == CSVSyntax.Scan(problem: nil, swallowed: []))
        let table = try SheetParser.parse(Data((Self.header + "\n" + body).utf8), format: .csv, source: "orders")
        #expect(table.malformed.isEmpty)
    }

    @Test(arguments: [
        // The issue's case: Amy's stray opening quote, Ben's stray closing one.
        ("1,G,Amy,tea,35,\"no straw,TRUE,CODE1\n2,G,Ben,tea,30,please\",FALSE,CODE2\n3,G,Cy,tea,30,,FALSE,CODE3\n", 2, 2...3),
        // Two whole rows swallowed, CRLF, no line break at the end.
        ("0,G,Di,tea,1,,TRUE,C0\r\n1,G,Amy,tea,35,\"x,TRUE,CODE1\r\n2,G,Ben,tea,30,,FALSE,CODE2\r\n3,G,Cy,tea,30,y\",FALSE,CODE3", 3, 3...5),
    ])
    func aCellThatSwallowsWholeRowsIsNamed(_ body: String, row: Int, lines: ClosedRange<Int>) throws {
        let text = Self.header + "\n" + body
        #expect(Self.scan(text) == CSVSyntax.Scan(problem: nil, swallowed: [.init(row: row, lines: lines)]))
        let table = try SheetParser.parse(Data(text.utf8), format: .csv, source: "orders")
        #expect(table.malformed == [.init(number: row, fieldCount: 8, swallowedLines: lines)])
        #expect(!table.rows.contains { $0.cells.contains { $0.contains("CODE") && $0.count > 5 } })
    }
    /// Rows pasted inside a real multi-line note sit wholly within its quotes, whatever the note's first and
    /// last lines hold: one pasted row is as whole a row as two.
    @Test(arguments: [
        // The issue's case: one row of the header's width between the note's two lines.
        ("1,G,Amy,tea,35,\"no straw\n2,G,Ben,tea,30,,FALSE,CODE2\nplease\",TRUE,CODE1\n", 2, 2...4),
        // Pasted at the start of the note's last line, CRLF.
        ("1,G,Amy,tea,35,\"no straw\r\n2,G,Ben,tea,30,,FALSE,CODE2please\",TRUE,CODE1\r\n", 2, 2...3),
        // Three rows, one with an empty quoted cell (its quotes doubled inside the note).
        ("1,G,Amy,tea,35,\"a\n2,G,Ben,tea,30,\"\"\"\",FALSE,CODE2\n3,G,Cy,tea,30,,FALSE,CODE3\n4,G,Di,tea,30,,FALSE,CODE4\nb\",TRUE,CODE1\n", 2, 2...6),
    ])
    func rowsPastedInsideANoteAreNamed(_ body: String, row: Int, lines: ClosedRange<Int>) throws {
        let text = Self.header + "\n" + body
        #expect(Self.scan(text) == CSVSyntax.Scan(problem: nil, swallowed: [.init(row: row, lines: lines)]))
        let table = try SheetParser.parse(Data(text.utf8), format: .csv, source: "orders")
        #expect(table.malformed == [.init(number: row, fieldCount: 8, swallowedLines: lines)])
        #expect(table.rows.isEmpty)
    }

    /// A note's text: lines of words, a comma at most in each, quotes doubled.
    static func noteLines(_ rng: inout some RandomNumberGenerator) -> [String] {
        let words = ["no straw", "less ice", "半糖", "\"\"x\"\"", "thanks", "", " ", "TRUE", "35", "G"]
        return (0..<Int.random(in: 1...4, using: &rng)).map { _ in
            (0..<Int.random(in: 1...6, using: &rng)).map { _ in words.randomElement(using: &rng)! }
                .joined(separator: Bool.random(using: &rng) ? " " : ",")
        }.map { line in
            // At most one comma a line, as notes have: with the separators around the note, neither its first
            // nor its last line holds a whole row's (the older rule's false alarm, `aRealMultiLineCellIsRead`).
            var commas = 0
            return String(line.map { character -> Character in
                guard character == "," else { return character }
                commas += 1
                return commas > 1 ? ";" : character
            })
        }
    }

    /// Any note, any number of rows pasted into it at any of its line breaks or line starts: no cell read
    /// holds a pasted row's secret or Amy's, and Amy's row is named with every line it spans.
    @Test func noPastedRowReachesACell() async {
        let cases = Generator<(note: [String], pasted: [(line: Int, row: String, secret: String, joined: Bool)], ending: String), Shrink.None<(note: [String], pasted: [(line: Int, row: String, secret: String, joined: Bool)], ending: String)>> { rng in
            let note = Self.noteLines(&rng)
            let pasted = (0..<Int.random(in: 1...4, using: &rng)).map { index in
                let secret = "PASTED\(index)X\(Int.random(in: 1000...9999, using: &rng))"
                let note = Bool.random(using: &rng) ? "" : "\"\"ok\"\""
                return (line: Int.random(in: 0...note.count, using: &rng),
                        row: "\(index + 10),G,P\(index),tea,\(index),\(note),FALSE,\(secret)", secret: secret,
                        joined: Bool.random(using: &rng))
            }
            return (note, pasted, Bool.random(using: &rng) ? "\n" : "\r\n")
        }
        await propertyCheck(count: 2000, input: cases) { note, pasted, ending in
            var lines = note
            for paste in pasted.sorted(by: { $0.line > $1.line }) {
                let at = min(paste.line, lines.count - 1)
                // Pasted as a line of its own, or at the start of a note line after the first (no line break after it).
                if paste.joined, at > 0 { lines[at] = paste.row + lines[at] } else { lines.insert(paste.row, at: min(paste.line, lines.count)) }
            }
            let amy = "1,G,Amy,tea,35,\"" + lines.joined(separator: ending) + "\",TRUE,AMYSECRET"
            let text = Self.header + ending + amy + ending + "9,G,Cy,tea,30,,FALSE,CYSECRET" + ending
            guard let table = try? SheetParser.parse(Data(text.utf8), format: .csv, source: "orders") else {
                Issue.record("refused: \(text.debugDescription)")
                return
            }
            let secrets = pasted.map(\.secret) + ["AMYSECRET"]
            #expect(!table.rows.contains { $0.cells.contains { cell in secrets.contains { cell.contains($0) } } }, "\(text.debugDescription)")
            #expect(table.malformed.map(\.number) == [2], "\(text.debugDescription)")
            #expect(table.malformed.first?.swallowedLines == 2...(1 + lines.count), "\(text.debugDescription)")
            #expect(table.rows.map { $0.cells.last } == ["CYSECRET"])
        }
    }

    /// The same notes with nothing pasted into them are read as they are.
    @Test func aGeneratedNoteIsRead() async {
        let notes = Generator<[String], Shrink.None<[String]>> { rng in Self.noteLines(&rng) }
        await propertyCheck(count: 2000, input: notes) { note in
            let text = Self.header + "\n1,G,Amy,tea,35,\"" + note.joined(separator: "\n") + "\",TRUE,AMYSECRET\n"
            let table = try? SheetParser.parse(Data(text.utf8), format: .csv, source: "orders")
            #expect(table?.malformed == [], "\(text.debugDescription)")
            #expect(table?.rows.first?.cells.last == "AMYSECRET")
        }
    }
}
