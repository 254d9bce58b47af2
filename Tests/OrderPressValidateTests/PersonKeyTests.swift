import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
import OrderPressTestSupport

/// A person is one key whatever the width, case and spacing their name is typed in, and two names
/// that differ otherwise stay two people (docs/configuration.md, One person, one page).
@Suite struct PersonKeyTests {
    /// Letters of the scripts people type names in, each with the other ways a keyboard writes it.
    static let letters: [(plain: String, variants: [String])] = [
        ("a", ["A", "ａ", "Ａ"]), ("k", ["K", "ｋ", "Ｋ"]), ("e", ["E", "ｅ", "Ｅ"]), ("n", ["N", "ｎ", "Ｎ"]),
        ("z", ["Z", "ｚ", "Ｚ"]), ("7", ["７"]), ("é", ["É", "e\u{301}", "E\u{301}"]),
        ("ア", ["ｱ"]), ("カ", ["ｶ"]), ("ガ", ["ｶﾞ"]), ("タ", ["ﾀ"]), ("ダ", ["ﾀﾞ"]), ("ロ", ["ﾛ"]), ("パ", ["ﾊﾟ"]), ("ー", ["ｰ"]),
        ("ヤ", ["ﾔ"]), ("ン", ["ﾝ"]), ("伊", []), ("藤", []), ("健", []), ("陳", []), ("김", []), ("민", []), ("の", []),
    ]

    /// A base name (letters' indices) and a way of typing it: per letter, which variant, and whether a
    /// space follows.
    struct Typing {
        var name: [Int]
        var variants: [Int]
        var spaces: [Bool]

        var plain: String { name.map { PersonKeyTests.letters[$0].plain }.joined() }

        var typed: String {
            var text = ""
            for (index, letter) in name.enumerated() {
                let choices = [PersonKeyTests.letters[letter].plain] + PersonKeyTests.letters[letter].variants
                text += choices[variants[index] % choices.count]
                if spaces[index] { text += " " }
            }
            return Text.normalize(text)
        }
    }

    static func typing(of name: [Int]?, using rng: inout some RandomNumberGenerator) -> Typing {
        let name = name ?? (0..<Int.random(in: 1...8, using: &rng)).map { _ in Int.random(in: 0..<letters.count, using: &rng) }
        return Typing(
            name: name, variants: name.map { _ in Int.random(in: 0...3, using: &rng) }, spaces: name.map { _ in Bool.random(using: &rng) })
    }

    static let typings = Generator<Typing, Shrink.None<Typing>> { rng in typing(of: nil, using: &rng) }

    /// Two typings, of one name half the time.
    static let pairs = Generator<[Typing], Shrink.None<[Typing]>> { rng in
        let first = typing(of: nil, using: &rng)
        return [first, typing(of: Bool.random(using: &rng) ? first.name : nil, using: &rng)]
    }

    @Test func everyTypingOfANameIsOneKey() async {
        await propertyCheck(count: 2_000, input: Self.typings) { typing in
            let typed = typing.typed
            #expect(PersonKey(typed) == PersonKey(typing.plain), "\(typed.debugDescription)")
            // Folding what is folded, or what an earlier build keyed (lower case), changes nothing.
            #expect(PersonKey(PersonKey(typed).text) == PersonKey(typed))
            #expect(PersonKey(Text.lowercased(typed)) == PersonKey(typed))
        }
    }

    @Test func differentNamesStayApart() async {
        await propertyCheck(count: 2_000, input: Self.pairs) { pair in
            let (a, b) = (pair[0].typed, pair[1].typed)
            #expect((PersonKey(a) == PersonKey(b)) == (pair[0].plain == pair[1].plain), "\(a) / \(b)")
        }
    }

    @Test(arguments: [
        ("伊藤 健", "伊藤健"), ("ﾔﾏﾀﾞ ﾀﾛｳ", "ヤマダ タロウ"), ("Ｋｅｎ", "Ken"), ("佐藤花子", "佐藤 花子"), ("Amy Chen", "amychen"),
        ("ＡＭＹ　ＣＨＥＮ", "Amy Chen"),
    ])
    func theIssuesSpellingsAreOnePerson(_ first: String, _ second: String) {
        #expect(PersonKey(Text.normalize(first)) == PersonKey(Text.normalize(second)))
    }

    @Test(arguments: [("Ken", "Ben"), ("伊藤健", "伊藤建"), ("Amy", "Amy!"), ("ヤマダ", "やまだ")])
    func namesThatDifferInALetterAreTwo(_ first: String, _ second: String) {
        #expect(PersonKey(first) != PersonKey(second))
    }

    /// The byte-wise fast path gives what Unicode's mappings give, for every scalar it keeps, alone,
    /// after a capital and before a space.
    @Test func theFastPathIsUnicodesMapping() {
        func reference(_ name: String) -> String {
            let folded = name.precomposedStringWithCompatibilityMapping.lowercased().precomposedStringWithCompatibilityMapping
            return String(String.UnicodeScalarView(folded.unicodeScalars.filter { !$0.properties.isWhitespace }))
        }
        for value in UInt32(0x20)...0xD7A3 where value < 0x7F || PersonKey.isStable(value) {
            let scalar = String(Unicode.Scalar(value)!)
            for name in [scalar, "A" + scalar + " b", scalar + "x"] where Text.isAlreadyNormal(name) || value < 0x7F {
                #expect(PersonKey.fold(name) == reference(name), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test(arguments: [
        ("佐藤花子", "佐藤花", true), ("佐藤花子", "佐藤华子", true), ("ken", "kne", true), ("ken", "kent", true), ("ken", "ken", false),
        ("ken", "kenji", false), ("amy", "may", true), ("amy", "mya", false), ("", "a", true), ("伊藤健", "伊健藤", true),
    ])
    func oneEditApart(_ first: String, _ second: String, _ expected: Bool) {
        #expect(PersonKey(first).isOneEdit(from: PersonKey(second)) == expected)
        #expect(PersonKey(second).isOneEdit(from: PersonKey(first)) == expected)
    }
}
