import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// The terminal's English counts: one is singular, anything else plural.
@Suite struct CountedTests {
    @Test(arguments: [
        (0, "row", nil, "0 rows"), (1, "row", nil, "1 row"), (2, "row", nil, "2 rows"), (11, "blank row", nil, "11 blank rows"),
        (1, "entry", "entries", "1 entry"), (3, "entry", "entries", "3 entries"),
    ] as [(Int, String, String?, String)])
    func oneIsSingular(count: Int, noun: String, plural: String?, text: String) {
        #expect(Counted.text(count, noun, plural: plural) == text)
    }
}
