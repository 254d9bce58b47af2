import Foundation
import Testing

@testable import OrderPress

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

    @Test(arguments: [
        ("{\"error\": \"quota\"}", "orders: expected a JSON array of row objects, found an object"),
        ("<html><body>502 Bad Gateway</body></html>", "orders: is not valid JSON (it looks like an HTML or XML page); expected an array of row objects"),
        ("[{\"a\": \"1\"}, {\"a\": ", "orders: is not valid JSON (it is cut short or malformed); expected an array of row objects"),
        ("", "orders: is not valid JSON (the body is empty); expected an array of row objects"),
        ("[1, 2]", "orders: row 2 is not an object; expected an array of row objects"),
        ("[{\"a\": [1]}]", "orders: row 2, column 'a' holds a list or an object; expected text or a number"),
    ])
    func rejectsWhatIsNotASheet(body: String, message: String) {
        do {
            _ = try SheetParser.parse(Data(body.utf8), format: .json, source: "orders")
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
}
