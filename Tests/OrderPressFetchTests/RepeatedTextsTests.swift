import Foundation
import Testing

@testable import OrderPressFetch

/// A sheet's repeated long cells are one `String` each (`RepeatedTexts`), on both parsers, and every cell
/// reads as its own bytes whatever the table held before.
@Suite struct RepeatedTextsTests {
    /// Where a text's bytes are stored: equal for two texts only when they share one storage.
    static func storage(_ text: String) -> UnsafePointer<UInt8>? {
        text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
    }

    static let group = "大苑子 788團 (Taipei)"
    static let time = "2026/11/20 上午 8:00:00"

    @Test func aRepeatedLongCellOfACSVIsOneString() throws {
        let rows = (0..<50).map { "\(Self.time),\(Self.group),u\($0)@example.com,short" }
        let table = try SheetParser.parseCSV(Data((["time,group,mail,note"] + rows).joined(separator: "\n").utf8), source: "orders")
        #expect(table.dataRowCount == 50)
        for row in 0..<50 {
            #expect(table.cell(row, 0) == Self.time && table.cell(row, 1) == Self.group && table.cell(row, 2) == "u\(row)@example.com")
            #expect(Self.storage(table.cell(row, 0)) == Self.storage(table.cell(0, 0)))
            #expect(Self.storage(table.cell(row, 1)) == Self.storage(table.cell(0, 1)))
        }
        #expect(Self.storage(table.cell(1, 2)) != Self.storage(table.cell(0, 2)))
    }

    @Test func aRepeatedLongValueOfAJSONSheetIsOneString() throws {
        let rows = (0..<50).map { #"{"group": "\#(Self.group)", "time": "\#(Self.time)", "id": "\#($0)"}"# }
        let table = try #require(SheetJSONScanner.table(Data(("[" + rows.joined(separator: ",\n") + "]").utf8), source: "orders"))
        let (group, time) = (try #require(table.headers.firstIndex(of: "group")), try #require(table.headers.firstIndex(of: "time")))
        for row in 0..<50 {
            #expect(table.cell(row, group) == Self.group && table.cell(row, time) == Self.time)
            #expect(Self.storage(table.cell(row, group)) == Self.storage(table.cell(0, group)))
            #expect(Self.storage(table.cell(row, time)) == Self.storage(table.cell(0, time)))
        }
    }

    /// The smallest table, many more texts than slots, each asked for twice in a scrambled order: a slot
    /// another text took over gives the text of the bytes asked for, never the one it held.
    @Test(arguments: [16, 17, 23, 24, 25, 40])
    func everyTextIsItsOwnBytes(length: Int) {
        var repeated = RepeatedTexts(bytes: 0)
        let texts = (0..<5_000).map { index in String(String(repeating: "x", count: length) + String(index)).suffix(length) }.map(String.init)
        var generator = SystemRandomNumberGenerator()
        for text in (texts + texts).shuffled(using: &generator) {
            let made = Array(text.utf8).withUnsafeBufferPointer { repeated.text($0.baseAddress!, count: $0.count) }
            #expect(made == text)
        }
    }

    @Test func shortTextsAreMadeAsTheyAre() {
        var repeated = RepeatedTexts(bytes: 1 << 20)
        for text in ["", "a", "四季春青茶", String(repeating: "z", count: 15)] {
            // A byte past the text, so that an empty one has an address too.
            let made = (Array(text.utf8) + [0]).withUnsafeBufferPointer { repeated.text($0.baseAddress!, count: $0.count - 1) }
            #expect(made == text)
        }
    }
}
