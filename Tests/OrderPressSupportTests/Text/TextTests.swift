import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct TextTests {
    @Test(arguments: [
        ("  Amy  ", "Amy"), ("Kevin \t\n Lin", "Kevin Lin"), ("e\u{301}", "\u{E9}"), ("", ""), ("a\u{3000}b", "a b"),
        ("plain", "plain"),
    ])
    func normalises(raw: String, expected: String) {
        #expect(Text.normalize(raw) == expected)
    }

    @Test func shortensWithAnEllipsis() {
        #expect(Text.shortened("abcdef", to: 4) == "abc…")
        #expect(Text.shortened("abcd", to: 4) == "abcd")
    }
}
