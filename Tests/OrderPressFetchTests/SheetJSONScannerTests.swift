import Foundation
import PropertyBased
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// The fast JSON path must read every plain sheet exactly as JSONSerialization does, and hand anything
/// else back (nil) so that the slow path decides: it may never accept a body the slow path refuses,
/// nor read one differently.
@Suite struct SheetJSONScannerTests {
    /// What the slow path (JSONSerialization, then `SheetParser.table`) makes of `data`; nil when it refuses it.
    static func slow(_ data: Data) -> SourceTable? {
        try? SheetParser.table(rows: SheetParser.jsonArray(data, source: "orders"), source: "orders")
    }

    /// Byte for byte: `String` equality would let "é" and "e\u{301}" pass for each other.
    static func same(_ fast: SourceTable, _ slow: SourceTable?) -> Bool {
        guard let slow else { return false }
        return fast.headers.map { Array($0.utf8) } == slow.headers.map { Array($0.utf8) }
            && fast.rows.map { $0.cells.map { Array($0.utf8) } } == slow.rows.map { $0.cells.map { Array($0.utf8) } }
            && fast.rows.map(\.number) == slow.rows.map(\.number) && fast.malformed.isEmpty
    }

    static let plain: [String] = [
        "[]",
        " \r\n\t[ ] \n",
        #"[{}]"#,
        #"[{"orderer": "Amy", "price": "35", "paid": true, "gone": null, "x": false}, {"orderer": "Ben", "price": "1,200"}]"#,
        #"[{"a": 1, "b": 0, "c": 1.0, "d": -1, "e": 32.125, "f": 1e2, "g": -0, "h": 0.1, "i": 1E-7, "j": 12345678901234567890}]"#,
        #"[{"a": "\"\\\/\b\f\n\r\t", "b": "\u00e9\u00E9 e\u0301 \ud83d\ude00 \u0000 \u200b"}]"#,
        #"[{"edit\u200bCode": "s", " note ": "n"}, {"edit\u200bCode": "t"}]"#,
        // Keys in another order in each row, and a key first met in a later row.
        #"[{"b": "1", "a": "2"}, {"a": "3", "b": "4"}, {"c": "5"}, {"a": "6", "c": "7", "b": "8"}]"#,
        "[{\"週五\": \"下午茶 🏴\u{E0067}\u{E0062}\u{E007F} \u{202E}gnp.exe\", \"a\": \"\u{7F}\"}]",
        #"[{"":"empty key"},{"id":"2"}]"#,
    ]

    @Test(arguments: plain)
    func readsPlainSheetsExactlyAsJSONSerializationDoes(body: String) throws {
        let data = Data(body.utf8)
        let fast = try #require(SheetJSONScanner.table(data, source: "orders"))
        #expect(Self.same(fast, Self.slow(data)))
    }

    /// Valid or not, none of these is a plain sheet the fast path should vouch for alone: whatever it
    /// returns must be what JSONSerialization reads, and it must return nothing for what that refuses.
    static let hostileText: [String] = [
        "", " ", "\u{FEFF}[]", "{}", "\"x\"", "1", "null", "[1]", "[[]]", "[{}", "[{}]]", "[{},]", "[,{}]", "[{}] x", "[{}]\u{0}",
        #"[{"a":"1",}]"#, #"[{"a":"1" "b":"2"}]"#, #"[{"a" "1"}]"#, #"[{a:"1"}]"#, #"[{'a':'1'}]"#, #"[{"a":[1]}]"#, #"[{"a":{}}]"#,
        #"[{"a":01}]"#, #"[{"a":1.}]"#, #"[{"a":.5}]"#, #"[{"a":-}]"#, #"[{"a":1e}]"#, #"[{"a":+1}]"#, #"[{"a":1-2}]"#,
        #"[{"a":Infinity}]"#, #"[{"a":NaN}]"#, #"[{"a":1E400}]"#, #"[{"a":-1e-400}]"#, #"[{"a":0x10}]"#,
        #"[{"a":tru}]"#, #"[{"a":nul}]"#, #"[{"a":True}]"#, #"[{"a":nulll}]"#,
        #"[{"a":"\ud800"}]"#, #"[{"a":"\udc00\ud800"}]"#, #"[{"a":"\ud800\u0041"}]"#, #"[{"a":"\x"}]"#, #"[{"a":"\u12"}]"#,
        #"[{"a":"\u00g0"}]"#, #"[{"a":"\"}]"#, "[{\"a\":\"tab\there\"}]", "[{\"a\":\"new\nline\"}]", "[{\"a\":\"\u{0}\"}]",
        #"[{"a":"1","a":"2"}]"#, #"[{"a":"1","\u0061":"2"}]"#, #"[{"note":"x","note\u200b":"y"}]"#, #"[{"note":"x"},{"note\u200b":"y"}]"#,
        "[{\"a\":\"1\"}\u{A0}]", "[\u{2028}{}]", "[{\"a\"\u{0B}:\"1\"}]",
        manyKeys,
    ]
    static let manyKeys: String = "[" + (0..<600).map { (key: Int) -> String in "{\"k\(key)\":\"v\"}" }.joined(separator: ",") + "]"
    static let hostile: [Data] = hostileText.map { Data($0.utf8) } + [
        inCell([0xFF]), inCell([0xC0, 0xAF]), inCell([0xED, 0xA0, 0x80]), inCell([0xF0, 0x9F, 0x98]),
        Data([0xFF, 0xFE] + Array("[{\"a\":\"1\"}]".data(using: .utf16LittleEndian)!)),
        "[{\"a\":\"1\"}]".data(using: .utf16BigEndian)!,
    ]

    /// `bytes` as the value of a cell. Built by appending: with GRDB's SQL operators visible (through
    /// OrderPress), a chain of `Data + Data` in an array literal is too much for the type checker.
    static func inCell(_ bytes: [UInt8]) -> Data {
        var data = Data(#"[{"a":""#.utf8)
        data.append(contentsOf: bytes)
        data.append(contentsOf: Array(#""}]"#.utf8))
        return data
    }

    @Test(arguments: hostile)
    func takesTheSlowPathOrReadsTheSameOnHostileBodies(body: Data) {
        guard let fast = SheetJSONScanner.table(body, source: "orders") else { return }
        #expect(Self.same(fast, Self.slow(body)))
    }

    /// The cases above that the fast path must leave alone, checked one by one, so that the test above cannot pass by accident.
    @Test func leavesNestedValuesDuplicateKeysAndLookAlikeKeysToTheSlowPath() {
        for body in [#"[{"a":[1]}]"#, #"[{"a":"1","a":"2"}]"#, #"[{"note":"x"},{"note\u200b":"y"}]"#, #"[{"editCode":"s"},{"editCode\u00ad":"t"}]"#, "[1]", "{}", "\u{FEFF}[]", #"[{"a":"\ud800"}]"#] {
            #expect(SheetJSONScanner.table(Data(body.utf8), source: "orders") == nil, "\(body)")
        }
    }

    static let keys = [#""a""#, #""b""#, #""\u0061""#, #""note""#, #""note\u200b""#, #""é""#, #""e\u0301""#, #""""#, #"" id ""#]
    static let values = [
        #""x""#, #""""#, #""\n\"""#, #""\ud83d\ude00""#, #""\ud83d""#, "1", "0", "-0", "1.5", "1e2", "1E400", "true", "false", "null", "[]", "{}",
        #""é""#, "\"\u{200B}\"", #""a\u0000b""#,
    ]
    static let insertions: [[UInt8]] = [[0x22], [0x5C], [0x2C], [0x5D], [0x7D], [0x7B], [0x3A], [0x00], [0xFF], [0x20], [0x0A], [0xC3]]

    /// A body of `rows` (pairs of a key and a value, by their place in `keys` and `values`), then `damage`:
    /// (1, at, _) deletes the byte at `at`, (2, at, insertion) inserts one of `insertions` there.
    static func body(_ rows: [[(Int, Int)]], keys: [String], values: [String], damage: (Int, Int, Int), rowSeparator: String = ",") -> [UInt8] {
        let text = "[" + rows.map { "{" + $0.map { "\(keys[$0.0]):\(values[$0.1])" }.joined(separator: ",") + "}" }.joined(separator: rowSeparator) + "]"
        var bytes = Array(text.utf8)
        let (kind, place, insertion) = damage
        let at = place % (bytes.count + 1)
        if kind == 1, at < bytes.count { bytes.remove(at: at) }
        if kind == 2 { bytes.insert(contentsOf: Self.insertions[insertion], at: at) }
        return bytes
    }

    /// Generated sheets from hostile keys and values, some with a byte deleted or inserted.
    @Test func generatedBodiesReadAsJSONSerializationReadsThem() async {
        let row = zip(Gen.int(in: 0...(Self.keys.count - 1)), Gen.int(in: 0...(Self.values.count - 1))).array(of: 0...4)
        let damage = zip(Gen.int(in: 0...2), Gen.int(in: 0...10_000), Gen.int(in: 0...(Self.insertions.count - 1)))
        await propertyCheck(count: 400, input: row.array(of: 0...5), damage) { rows, damage in
            let bytes = Self.body(rows, keys: Self.keys, values: Self.values, damage: damage)
            let data = Data(bytes)
            guard let fast = SheetJSONScanner.table(data, source: "orders") else { return }
            #expect(Self.same(fast, Self.slow(data)), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// Byte for byte, or both nil.
    static func identical(_ one: SourceTable?, _ other: SourceTable?) -> Bool {
        guard let one, let other else { return one == nil && other == nil }
        return one.headers.map { Array($0.utf8) } == other.headers.map { Array($0.utf8) }
            && one.rows.map { $0.cells.map { Array($0.utf8) } } == other.rows.map { $0.cells.map { Array($0.utf8) } }
            && one.rows.map(\.number) == other.rows.map(\.number)
    }

    /// Rows that look like row boundaries inside their strings, keys met only in one half, keys that
    /// normalise alike in different halves.
    static let splitValues = Self.values + [#""},{""#, #""}, {\"a\": \"x\"}, {""#, #""\"},{""#]
    static let splitKeys = Self.keys + [#""c""#, #""週五""#]

    /// Read in two halves at once, a body gives exactly what one pass gives (nil included), wherever
    /// the second half is looked for: at every `}` of the body, inside strings too.
    @Test func twoHalvesReadAsOnePass() async {
        let row = zip(Gen.int(in: 0...(Self.splitKeys.count - 1)), Gen.int(in: 0...(Self.splitValues.count - 1))).array(of: 0...3)
        let damage = zip(Gen.int(in: 0...3), Gen.int(in: 0...10_000), Gen.int(in: 0...(Self.insertions.count - 1)))
        await propertyCheck(count: 300, input: row.array(of: 0...8), damage) { rows, damage in
            let bytes = Self.body(rows, keys: Self.splitKeys, values: Self.splitValues, damage: damage, rowSeparator: ",\n")
            let data = Data(bytes)
            let onePass = SheetJSONScanner.table(data, source: "orders")
            for near in [0] + bytes.indices.filter({ bytes[$0] == UInt8(ascii: "}") }) {
                #expect(Self.identical(SheetJSONScanner.table(data, source: "orders", splitNear: near), onePass), "\(String(decoding: bytes, as: UTF8.self)) at \(near)")
            }
        }
    }

    @Test func aLargeSheetIsReadInTwoHalvesAsInOnePass() throws {
        // Column "late" only in the second half, "early" only in the first: the halves' columns differ.
        let rows = (0..<40_000).map { index in
            index < 100 ? #"{"id": "\#(index)", "early": "e", "週五": "下午茶 \#(index)"}"# : index > 39_000 ? #"{"late": "\#(index)", "id": "\#(index)"}"# : #"{"id": "\#(index)", "週五": "},{\"x\": \#(index)"}"#
        }
        let data = Data(("[" + rows.joined(separator: ",\n") + "]").utf8)
        #expect(data.count >= SheetJSONScanner.minimumSplitSize)
        let halves = try #require(SheetJSONScanner.table(data, source: "orders"))
        #expect(halves.headers == ["early", "id", "late", "週五"])
        #expect(Self.identical(halves, SheetJSONScanner.table(data, source: "orders", splitNear: data.count)))
        #expect(Self.identical(halves, Self.slow(data)))
    }

    /// The fast path gives the same errors as ever, since it leaves every refusal to the slow one.
    @Test func errorsAreTheSlowPathsOwn() {
        SheetParserTests.expectRefusal(#"[{"a": "1"}, {"a": [2]}]"#, .json, "orders: row 3, column 'a' holds a list or an object; expected text or a number")
        SheetParserTests.expectRefusal(#"[{"a": "1"}, 7]"#, .json, "orders: row 3 is not an object; expected an array of row objects")
    }
}
