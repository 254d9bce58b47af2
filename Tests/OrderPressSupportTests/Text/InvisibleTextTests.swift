import Foundation
import Testing

@testable import OrderPressSupport

@Suite struct InvisibleTextTests {
    /// Whatever a reader cannot see is gone before people and groups are identified.
    @Test(arguments: [
        ("A\u{200B}my", "Amy"),  // zero-width space
        ("\u{FEFF}Amy", "Amy"),  // byte order mark
        ("Am\u{00AD}y", "Amy"),  // soft hyphen
        ("A\u{2060}my", "Amy"),  // word joiner
        ("A\u{200C}my", "Amy"),  // zero-width non-joiner
        ("A\u{200D}my", "Amy"),  // a joiner between letters
        ("\u{202E}ymA\u{202C}", "ymA"),  // right-to-left override … pop
        ("\u{202A}Amy\u{202B}\u{202D}", "Amy"),  // embeddings and overrides
        ("\u{2066}Amy\u{2067}\u{2068}\u{2069}", "Amy"),  // isolates
        ("\u{200E}Amy\u{200F}\u{061C}", "Amy"),  // marks
        ("A\u{0}m\u{7}y\u{1B}[2J\u{7F}\u{9B}", "Amy[2J"),  // C0 and C1 controls, DEL
        ("A\u{180E}my\u{E0041}", "Amy"),  // Mongolian vowel separator, a stray tag
        ("A\u{3164}my\u{115F}", "Amy"),  // Hangul fillers (invisible letters)
        ("A\u{FE0F}my", "Amy"),  // a variation selector on a letter
        ("  Amy \t\r\n Chen\u{00A0}\u{3000}", "Amy Chen"),  // whitespace trimmed and collapsed
        ("\u{200B} Amy \u{200B} Chen \u{200B}", "Amy Chen"),  // no double space where an invisible one was
        ("e\u{200B}\u{301}clair", "\u{E9}clair"),  // composes once the space between is gone
        ("👩\u{200D}\u{FE0F}", "👩\u{FE0F}"),  // a joiner before nothing it could join (found by the property test)
        ("👩\u{200D}\u{200D}💻", "👩\u{200D}💻"),
    ])
    func removesInvisibleCharacters(raw: String, normal: String) {
        #expect(Text.normalize(raw) == normal)
        #expect(Text.normalize(normal) == normal)
    }

    /// Emoji sequences stay whole: ZWJ sequences, skin tones, variation selectors, keycaps, subdivision
    /// flags (tag characters), and ideographic variation sequences of names.
    @Test(arguments: [
        "👩\u{200D}💻", "👩🏽\u{200D}💻", "❤\u{FE0F}\u{200D}🔥", "🏳\u{FE0F}\u{200D}🌈", "❤\u{FE0F}", "1\u{FE0F}\u{20E3}",
        "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "葛\u{E0100}城", "Amy 👨\u{200D}👩\u{200D}👧",
        "👩\u{FE0F}",
    ])
    func keepsEmojiSequences(text: String) {
        #expect(Text.normalize(text) == text)
        #expect(Text.normalize(text).unicodeScalars.count == text.unicodeScalars.count)
    }

    @Test func plainASCIIComesBackAsItIs() {
        for text in ["", "Amy", "Amy Chen", "1,200.50", "a b c"] { #expect(Text.normalize(text) == text) }
    }
}

import PropertyBased
import OrderPressTestSupport

/// Generated text: letters of several scripts, emoji, marks and spaces, with invisible characters sprinkled in.
@Suite struct InvisibleTextPropertyTests {
    static let visible: [String] = ["A", "m", "y", " ", "é", "e\u{301}", "王", "小", "が", "か\u{3099}", "한", "👩", "💻", "🏽", "❤", "\u{FE0F}", "\u{200D}", "1", "Ω", "\u{3000}", "\t"]
    static let invisible: [String] = ["\u{200B}", "\u{200C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{061C}", "\u{0}", "\u{1B}", "\u{7F}", "\u{9B}", "\u{180E}", "\u{E0041}", "\u{3164}"]

    @Test func invisibleCharactersNeverMakeTwoNamesOfOne() async {
        let pieceIndices = Gen.int(in: 0...(Self.visible.count - 1)).array(of: 0...8)
        let noiseIndices = Gen.int(in: 0...(Self.invisible.count - 1)).array(of: 0...8)
        let positions = Gen.int(in: 0...8).array(of: 0...8)
        await propertyCheck(count: 500, input: pieceIndices, noiseIndices, positions) { pieceIndices, noiseIndices, positions in
            let pieces = pieceIndices.map { Self.visible[$0] }
            let noise = noiseIndices.map { Self.invisible[$0] }
            let clean = pieces.joined()
            var noisy = pieces
            for (mark, position) in zip(noise, positions) { noisy.insert(mark, at: min(position, noisy.count)) }
            let normal = Text.normalize(clean)
            // Inserting an invisible character between two pieces may only ever split an emoji sequence.
            if !clean.unicodeScalars.contains(where: { $0 == "\u{200D}" || $0 == "\u{FE0F}" }) {
                #expect(Text.normalize(noisy.joined()) == normal)
            }
            #expect(Text.normalize(normal) == normal)
            #expect(Text.normalize(Text.normalize(noisy.joined())) == Text.normalize(noisy.joined()))
            for scalar in Text.normalize(noisy.joined()).unicodeScalars {
                let category = scalar.properties.generalCategory
                #expect(category != .control && (category != .format || scalar == "\u{200D}"), "U+\(String(scalar.value, radix: 16)) survived")
            }
        }
    }
}
