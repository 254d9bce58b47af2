import Testing

@testable import OrderPressFetch
import OrderPressSupport

/// Each repeated long text made once (`RepeatedTexts`), and every text read as its own bytes whatever the
/// table held before. That the orders share them is `RowReaderTests`'.
@Suite struct RepeatedTextsTests {
    /// Where a text's bytes are stored: equal for two texts only when they share one storage.
    static func storage(_ text: String) -> UnsafePointer<UInt8>? {
        text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
    }

    /// The smallest table, many more texts than slots, each asked for twice in a scrambled order: a slot
    /// another text took over gives the text of the bytes asked for, never the one it held.
    @Test(arguments: [16, 17, 23, 24, 25, 40])
    func everyTextIsItsOwnBytes(length: Int) {
        var repeated = RepeatedTexts(texts: 0)
        let texts = (0..<5_000).map { index in String(String(repeating: "x", count: length) + String(index)).suffix(length) }.map(String.init)
        var generator = SystemRandomNumberGenerator()
        for text in (texts + texts).shuffled(using: &generator) {
            let made = Array(text.utf8).withUnsafeBufferPointer { repeated.normalText($0.baseAddress!, count: $0.count) }
            #expect(made == text)
        }
    }

    /// A table sized for a large sheet's texts finds a text again after 200,000 others (a person's e-mail
    /// in orders far apart): most of the first thousand are the very `String`s made for them.
    @Test func aTextRepeatedFarApartIsFoundAgainInALargeTable() {
        var repeated = RepeatedTexts(texts: 1 << 20)
        func make(_ text: String) -> String {
            Array(text.utf8).withUnsafeBufferPointer { repeated.normalText($0.baseAddress!, count: $0.count) }
        }
        let texts = (0..<200_000).map { "u\($0)@example.com.tw" }
        let first = texts.map(make)
        let again = texts.prefix(1_000).map(make)
        let found = zip(first, again).filter { Self.storage($0) == Self.storage($1) }.count
        #expect(zip(first, again).allSatisfy { $0 == $1 })
        #expect(found >= 700, "\(found) of 1,000 found again")
    }

    @Test func shortTextsAreMadeAsTheyAre() {
        var repeated = RepeatedTexts(texts: 1 << 12)
        for text in ["", "a", "四季春青茶", String(repeating: "z", count: 15)] {
            // A byte past the text, so that an empty one has an address too.
            let made = (Array(text.utf8) + [0]).withUnsafeBufferPointer { repeated.normalText($0.baseAddress!, count: $0.count - 1) }
            #expect(made == text)
        }
    }

    /// `normalText` is `Text.normalize` of the bytes, every time: a normal text that repeats is the one made
    /// before, one that normalising changes is never taken for the normal text stored in its slot.
    @Test func normalTextsAreNormalisedAndOnlyNormalOnesFoundAgain() {
        var repeated = RepeatedTexts(texts: 1 << 12)
        func make(_ text: String) -> String {
            (Array(text.utf8) + [0]).withUnsafeBufferPointer { repeated.normalText($0.baseAddress!, count: $0.count - 1) }
        }
        let texts = [
            "", "a", " a ", "團購 00065 熟成紅茶", "  團購  00065\u{200B} 熟成紅茶 ", "Cafe\u{301} au lait, grande", "Café au lait, grande",
            "Lemon tea with pearls", " Lemon  tea with pearls",
        ]
        // By bytes: a `String` key would take `Cafe\u{301}` for `Café`.
        var first: [[UInt8]: String] = [:]
        for text in texts + texts.reversed() + texts {
            let made = make(text)
            #expect(made.utf8.elementsEqual(Text.normalize(text).utf8), "\(text)")
            if let before = first[Array(text.utf8)], Text.normalize(text).utf8.elementsEqual(text.utf8), text.utf8.count > RepeatedTexts.inlineBytes {
                #expect(Self.storage(before) == Self.storage(made), "\(text) made again")
            }
            first[Array(text.utf8)] = first[Array(text.utf8)] ?? made
        }
    }

    /// Short texts by their bytes: more texts than the short table has slots, each asked for twice in a
    /// scrambled order, some that only their length or a trailing zero byte tells apart, some not normal.
    @Test(arguments: [1, 2, 7, 8, 9, 15])
    func everyShortTextIsTheNormalFormOfItsOwnBytes(length: Int) {
        var repeated = RepeatedTexts(texts: 0)
        var texts = (0..<5_000).map { index in String(String(repeating: "0", count: length) + String(index)).suffix(length) }.map(String.init)
        texts += ["", "\u{0}", "0\u{0}", " 0", "0 ", " ", "\u{200B}", "a\u{301}", "á", "  a  b ", "１２"]
        var generator = SystemRandomNumberGenerator()
        for text in (texts + texts).shuffled(using: &generator) {
            let made = (Array(text.utf8) + [0]).withUnsafeBufferPointer { repeated.normalText($0.baseAddress!, count: $0.count - 1) }
            #expect(made.utf8.elementsEqual(Text.normalize(text).utf8), "\(text.debugDescription)")
        }
    }
}
