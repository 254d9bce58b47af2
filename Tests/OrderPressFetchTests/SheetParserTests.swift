import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

@Suite struct SheetParserTests {
    @Test func readsSheetDBJSONWithStringsAndNumbers() throws {
        let json = #"[{"orderer": "Amy", "price": "35", "quantity": 2, "rate": 32.125, "paid": true, "gone": null},"#
            + #" {"orderer": "Ben", "price": "1,200"}]"#
        let table = try SheetParser.parse(Data(json.utf8), format: .json, source: "orders")
        #expect(table.headers == ["gone", "orderer", "paid", "price", "quantity", "rate"])
        #expect(table.rows == [
            .init(number: 2, cells: ["", "Amy", "TRUE", "35", "2", "32.125"]),
            .init(number: 3, cells: ["", "Ben", "", "1,200", "", ""]),
        ])
    }

    /// On Linux a JSON 1 or 0 also casts to Bool; a number must stay a number (`1.0` is the number 1).
    @Test func numbersOneAndZeroAreNotBooleans() throws {
        let json = #"[{"a": 1, "b": 0, "c": 1.0, "d": true, "e": false, "f": 2, "g": -1}]"#
        let table = try SheetParser.parse(Data(json.utf8), format: .json, source: "orders")
        #expect(table.rows.first?.cells == ["1", "0", "1", "TRUE", "FALSE", "2", "-1"])
    }

    @Test(arguments: [
        ("{\"error\": \"quota\"}", "orders: expected a JSON array of row objects, found an object"),
        ("<html><body>502 Bad Gateway</body></html>", "orders: is not valid JSON (it looks like an HTML or XML page); expected an array of row objects"),
        ("[{\"a\": \"1\"}, {\"a\": ", "orders: is not valid JSON (it is cut short or malformed); expected an array of row objects"),
        ("", "orders: is not valid JSON (the body is empty); expected an array of row objects"),
        ("[1, 2]", "orders: row 2 is not an object; expected an array of row objects"),
        ("[{\"a\": [1]}]", "orders: row 2, column 'a' holds a list or an object; expected text or a number"),
    ])
    func rejectsWhatIsNotASheet(body: String, message: String) {
        Self.expectRefusal(body, .json, message)
    }

    /// Parsing `text` fails as a source error (exit 69) saying exactly `message`.
    static func expectRefusal(_ text: String, _ format: SheetParser.Format, _ message: String) {
        do {
            _ = try SheetParser.parse(Data(text.utf8), format: format, source: "orders")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
            #expect(error.exitStatus == .unavailable)
        }
    }

    @Test func readsRFC4180CSV() throws {
        let csv = "\u{FEFF}name,note,price\r\n\"Amy\",\"says \"\"hi\"\", twice\",35\r\nBen,\"line one\r\nline two\",\"1,200\"\r\n\r\nCat,,\r\n"
        let table = try SheetParser.parse(Data(csv.utf8), format: .csv, source: "orders")
        #expect(table.headers == ["name", "note", "price"])
        #expect(table.rows == [
            .init(number: 2, cells: ["Amy", "says \"hi\", twice", "35"]),
            .init(number: 3, cells: ["Ben", "line one\r\nline two", "1,200"]),
            .init(number: 5, cells: ["Cat", "", ""]),
        ])
    }

    @Test func keepsRowsWithTooFewOrTooManyFieldsAsMalformedWithoutTheirCells() throws {
        let table = try SheetParser.parse(Data("a,b\n1\n2,3,4\n\n5,6\n".utf8), format: .csv, source: "groups")
        #expect(table.rows == [.init(number: 5, cells: ["5", "6"])])
        #expect(table.malformed == [.init(number: 2, fieldCount: 1), .init(number: 3, fieldCount: 3)])
        #expect(table.rowCount == 3)
    }

    @Test func csvWithoutHeaderIsAnError() {
        #expect(throws: SourceError.self) { try SheetParser.parse(Data(), format: .csv, source: "orders") }
    }

    /// CSV.swift alone read these without a word: the rest of the file as one cell, a dropped character,
    /// or an end of file at the first bad byte.
    @Test(arguments: [
        ("a,b\n1,2\n\"3,4\n5,6\n7,8\n", "orders: row 3 opens a quoted field that never closes, so the rest of the file cannot be read; close the quote or double it (\"\") inside the field"),
        ("a,b\r\n1,\"x\r\ny\"\r\n\r\n3,\"4\n", "orders: row 4 opens a quoted field that never closes, so the rest of the file cannot be read; close the quote or double it (\"\") inside the field"),
        ("\"a,b\n1,2\n", "orders: row 1 opens a quoted field that never closes, so the rest of the file cannot be read; close the quote or double it (\"\") inside the field"),
        ("a,b\n1,2\n3,\"4\"5\n", "orders: row 3 has a quoted field followed by text after its closing quote, or missing its closing quote; quote the whole field and double the quotes inside it (\"\")"),
    ])
    func refusesBrokenQuoting(csv: String, message: String) {
        Self.expectRefusal(csv, .csv, message)
    }

    @Test func aQuoteInsideAnUnquotedFieldIsText() throws {
        let table = try SheetParser.parse(Data("a,b\n5\" pizza,\"x\"\"y\"\n".utf8), format: .csv, source: "orders")
        #expect(table.rows.map(\.cells) == [["5\" pizza", "x\"y"]])
    }

    static func bytes(_ text: String, _ bad: [UInt8], _ rest: String = "") -> Data {
        Data(text.utf8) + Data(bad) + Data(rest.utf8)
    }

    static let invalidUTF8: [(Data, Int)] = [
        (bytes("a,b\n1,2\n3,", [0xFF], "\n5,6\n"), 3),
        (bytes("\u{FEFF}a,b\r\n1,\"x\r\n\r\ny\"\r\n2,\"z\n", [0xC3, 0x28], "\"\n"), 3),  // inside a field over two lines
        (bytes("a", [0xED, 0xA0, 0x80], "\n"), 1),  // a surrogate
        (bytes("a\n1\n", [0xF0, 0x9F, 0x98]), 3),  // cut short at the end
        (bytes("a\n1\n\n2\n", [0xC0, 0xAF]), 5),  // overlong, after a blank line
    ]

    /// Bytes that are not UTF-8 are named at their sheet row, inside a quoted field over several lines too.
    @Test(arguments: invalidUTF8)
    func namesTheRowOfInvalidUTF8InCSV(bytes: Data, row: Int) {
        #expect(throws: SourceError(source: "orders", message: "row \(row) is not valid UTF-8; save the file as UTF-8")) {
            try SheetParser.parse(bytes, format: .csv, source: "orders")
        }
    }

    @Test func namesTheRowOfInvalidUTF8InJSON() {
        let body = Data(#"[{"a": "1"}, {"a": "{[\"]"}, {"a": "x"#.utf8) + Data([0xFF]) + Data(#""}]"#.utf8)
        #expect(throws: SourceError(source: "orders", message: "row 4 is not valid UTF-8; the sheet must be sent as UTF-8")) {
            try SheetParser.parse(body, format: .json, source: "orders")
        }
    }

    /// Header names are normalised like every text, so that an invisible character cannot hide the
    /// secret column from its mapping (nor a published one).
    @Test func headersAreNormalisedInCSVAndJSON() throws {
        let csv = try SheetParser.parse(Data("\u{FEFF}\u{200B}group , edit\u{200B}Code,\u{202E}note\n1,2,3\n".utf8), format: .csv, source: "orders")
        #expect(csv.headers == ["group", "editCode", "note"])
        let json = try SheetParser.parse(Data(#"[{"edit\u200bCode": "s3cr3t", " note ": "hi", "group": "G"}, {"editCode": "k3y", "edit\u00adCode": "other"}]"#.utf8), format: .json, source: "orders")
        #expect(json.headers == ["editCode", "group", "note"])
        // Two keys of one row that normalise alike: the first in code-point order is read.
        #expect(json.rows.map(\.cells) == [["s3cr3t", "G", "hi"], ["k3y", "", ""]])
    }
}
