import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `Text.isAlreadyNormal` reads a text's UTF-8 bytes, decoding them itself: it answers exactly what
/// the check scalar by scalar (`Text.isPlainText`) answers.
@Suite struct NormalTextTests {
    /// Scalars of one, two, three and four UTF-8 bytes, at and around the edges of the plain ranges.
    static let pieces: [String] = [
        "a", "Z", "0", "!", "~", "\u{1F}", " ", "  ", "\t", "\n", "\u{7F}", "\u{0}", "\u{A0}", "\u{A1}", "\u{AC}", "\u{AD}", "\u{AE}", "é", "\u{2FF}",
        "\u{300}", "\u{301}", "\u{3000}", "\u{3001}", "\u{3029}", "\u{302A}", "\u{3041}", "\u{3096}", "\u{3099}", "\u{309B}", "\u{30FF}",
        "\u{4DFF}", "\u{4E00}", "週", "\u{9FFF}", "\u{A000}", "\u{AC00}", "한", "\u{D7A3}", "\u{D7A4}", "\u{FF01}", "\u{FF9F}", "\u{FFA0}",
        "\u{200B}", "\u{FEFF}", "😀", "\u{E0041}", "👩‍💻",
    ]

    static let texts = Generator<String, Shrink.None<String>> { rng in
        (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    @Test func theByteWiseCheckAnswersAsTheScalarWiseOne() async {
        await propertyCheck(count: 3000, input: Self.texts) { text in
            #expect(Text.isAlreadyNormal(text) == Text.isPlainText(text), "\(text.unicodeScalars.map(\.value))")
            if Text.isAlreadyNormal(text) { #expect(Text.normalize(text) == text) }
        }
    }

    @Test(arguments: [
        ("", true), ("Amy", true), ("Amy Chen", true), ("Amy  Chen", false), (" Amy", false), ("Amy ", false), ("週五 下午茶", true),
        ("é", true), ("e\u{301}", false), ("한국", true), ("A\u{200B}my", false), ("😀", false), ("ｱ", true), ("\u{3000}", false),
    ])
    func plainTextIsLeftAsItIs(text: String, normal: Bool) {
        #expect(Text.isAlreadyNormal(text) == normal)
        #expect(Text.isPlainText(text) == normal)
    }
}
