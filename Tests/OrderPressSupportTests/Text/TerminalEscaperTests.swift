import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct TerminalEscaperTests {
    @Test(arguments: [
        ("\u{1B}]0;pwned\u{7}", #"\u{1B}]0;pwned\u{7}"#), ("\u{1B}[2J", #"\u{1B}[2J"#), ("a\rb", #"a\rb"#),
        ("a\nb\tc", #"a\nb\tc"#), ("\u{9B}31m", #"\u{9B}31m"#), ("x\u{7F}\u{0}", #"x\u{7F}\u{0}"#),
        ("abc\u{202E}fed", #"abc\u{202E}fed"#), ("\u{2066}x\u{2069}", #"\u{2066}x\u{2069}"#), ("A\u{200B}my", #"A\u{200B}my"#),
        ("\u{FEFF}x\u{AD}", #"\u{FEFF}x\u{AD}"#), ("a\u{2028}b\u{85}", #"a\u{2028}b\u{85}"#),
    ])
    func escapesWhatATerminalWouldActOn(text: String, escaped: String) {
        #expect(TerminalEscaper.escape(text) == escaped)
    }

    /// Emoji made with the zero-width joiner or tag characters, combining marks, a Windows path.
    @Test(arguments: ["週五下午茶 · 35 TWD", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "Crème Brûlée", #"C:\orders\new"#, "\"quoted\" & <b>"])
    func leavesVisibleTextAlone(text: String) {
        #expect(TerminalEscaper.escape(text) == text)
    }

    @Test func noControlByteSurvivesWhateverTheText() async {
        let hostile = Array(0...0xA0).compactMap(Unicode.Scalar.init) + ["\u{202A}", "\u{202E}", "\u{2067}", "\u{200B}", "\u{2029}", "週", "é"]
        let text = Generator<String, Shrink.None<String>> { rng in
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &rng) { text.unicodeScalars.append(hostile.randomElement(using: &rng)!) }
            return text
        }
        await propertyCheck(count: 500, input: text) { text in
            let escaped = TerminalEscaper.escape(text)
            #expect(!escaped.unicodeScalars.contains(where: TerminalEscaper.needsEscape))
            #expect(!escaped.utf8.contains { $0 < 0x20 || $0 == 0x7F })
            #expect(TerminalEscaper.escape(escaped) == escaped)
        }
    }

    /// The ranges `needsEscape` answers without a property lookup hold nothing it would escape.
    @Test func plainRangesHoldNoControlSeparatorOrFormatCharacter() {
        let acted: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator, .format]
        for range in TerminalEscaper.plainRanges {
            let found = range.compactMap(Unicode.Scalar.init).filter { acted.contains($0.properties.generalCategory) }
            #expect(found.isEmpty, "\(found)")
        }
    }
}
