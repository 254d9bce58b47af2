import Foundation
import Testing

@testable import OrderPress

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
        // The case: Amy's stray opening quote, Ben's stray closing one.
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
}
