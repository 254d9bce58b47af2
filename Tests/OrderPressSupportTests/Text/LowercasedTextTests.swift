import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `Text.lowercased` decides from a text's UTF-8 bytes whether only ASCII letters change: it answers as
/// the check scalar by scalar (`Text.caseOfScalars`) does, and always gives what `lowercased()` gives.
@Suite struct LowercasedTextTests {
    /// `NormalTextTests.pieces` (scalars of one to four bytes, at the edges of the ranges) and letters of every case.
    static let pieces = NormalTextTests.pieces + ["A", "M", "z", "@", "[", "`", "{", "É", "Σ", "İ", "ß", "Ａ", "\u{302F}", "\u{3040}", "\u{3100}"]

    static let texts = Generator<String, Shrink.None<String>> { rng in
        (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    @Test func theByteWiseReadingAnswersAsTheScalarWiseOne() async {
        await propertyCheck(count: 3000, input: Self.texts) { text in
            var copy = text
            let byteWise = copy.withUTF8 { Text.caseOf(utf8: $0) }
            #expect(byteWise == Text.caseOfScalars(text), "\(text.unicodeScalars.map(\.value))")
            #expect(Text.lowercased(text) == text.lowercased(), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test(arguments: [
        ("", Text.CaseFolding.lower), ("amy", .lower), ("Amy", .asciiUpper), ("葉Yuki", .asciiUpper), ("周建宏", .lower), ("김민준", .lower),
        ("Émile", .other), ("ｱ", .other), ("😀", .other), ("\u{3000}", .lower),
    ])
    func eachKindOfName(text: String, folding: Text.CaseFolding) {
        var copy = text
        #expect(copy.withUTF8 { Text.caseOf(utf8: $0) } == folding)
        #expect(Text.caseOfScalars(text) == folding)
        #expect(Text.lowercased(text) == text.lowercased())
    }
}
