import Foundation
import PropertyBased
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// A JSON number in a sheet is its exact decimal text, on the fast path and on JSONSerialization's alike.
@Suite struct JSONNumberTextTests {
    static func canonical(_ token: String) -> String? {
        Data(token.utf8).withUnsafeBytes { JSONNumberText.canonical($0) }
    }

    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("35", "35"), ("35.50", "35.5"), ("1.0", "1"), ("-1", "-1"), ("0.1", "0.1"),
        ("46347.38541666667", "46347.38541666667"), ("12345678901.123456", "12345678901.123456"),
        ("12345678901234567890", "12345678901234567890"), ("1e2", "100"), ("1.5E3", "1500"), ("1E-7", "0.0000001"),
        ("-2.5e-3", "-0.0025"), ("120e-1", "12"), ("0.000", "0"), ("100", "100"),
    ])
    func writesTheExactDecimal(token: String, text: String) {
        #expect(Self.canonical(token) == text)
    }

    @Test(arguments: ["01", "1.", ".5", "-", "1e", "+1", "1-2", "0x10", "1E400", "--1", "1e+", ""])
    func refusesWhatIsNotAJSONNumberOrTooFarOut(token: String) {
        #expect(Self.canonical(token) == nil)
    }

    /// Through both JSON paths (the scanner, and JSONSerialization after `quotingNumbers`), a number with
    /// more digits than a Double holds keeps every one of them.
    @Test func bothPathsKeepEveryDigit() throws {
        let body = #"[{"price": 12345678901.123456, "time": 46347.385416666664, "q": 2, "paid": true, "big": 123456789012345678901234}]"#
        let fast = try #require(SheetJSONScanner.table(Data(body.utf8), source: "orders"))
        let slow = try SheetParser.table(rows: SheetParser.jsonArray(Data(body.utf8), source: "orders"), source: "orders")
        let expected = ["123456789012345678901234", "TRUE", "12345678901.123456", "2", "46347.385416666664"]
        #expect(fast.rows.first?.cells == expected)
        #expect(slow.rows.first?.cells == expected)
    }

    /// Quoting numbers never makes a body JSONSerialization refuses into one it reads, nor changes a string.
    @Test(arguments: [
        #"[{"a":1 "b":2}]"#, #"[{1: "a"}]"#, #"[{"a": "1", 2}]"#, #"[{"a":01}]"#, #"[1"#, #"{"a": 1e}"#, #"[{"a":"x\"1,"}]"#,
    ])
    func quotingLeavesTheRestAlone(body: String) {
        let data = Data(body.utf8)
        let quoted = JSONNumberText.quotingNumbers(data)
        let before = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
        let after = (try? JSONSerialization.jsonObject(with: quoted, options: [.fragmentsAllowed])) != nil
        #expect(before == after, "\(String(decoding: quoted, as: UTF8.self))")
    }

    /// Generated decimals of up to 30 digits with exponents: the text is the decimal the token means,
    /// checked against Foundation's `Decimal(string:)` (exact for 38 digits) instead of Double.
    @Test func matchesDecimalArithmetic() async {
        let tokens = Generator<String, Shrink.None<String>> { rng in
            let integer = Bool.random(using: &rng) ? "0" : String(Int.random(in: 1...9, using: &rng)) + (0..<Int.random(in: 0...12, using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let fraction = Bool.random(using: &rng) ? "" : "." + (0..<Int.random(in: 1...12, using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let exponent = Bool.random(using: &rng) ? "" : ["e", "E"].randomElement(using: &rng)! + ["", "+", "-"].randomElement(using: &rng)! + String(Int.random(in: 0...6, using: &rng))
            return (Bool.random(using: &rng) ? "-" : "") + integer + fraction + exponent
        }
        await propertyCheck(count: 1000, input: tokens) { token in
            let text = Self.canonical(token)
            #expect(text.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) } == Decimal(string: token, locale: Locale(identifier: "en_US_POSIX")), "\(token) → \(text ?? "nil")")
            #expect(text.map { !$0.contains("e") && !$0.contains("E") && !($0.contains(".") && $0.hasSuffix("0")) } == true, "\(token) → \(text ?? "nil")")
        }
    }
}
