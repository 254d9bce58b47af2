import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct JSONEscaperTests {

    static let texts = Generator<String, Shrink.None<String>> { rng in EscapedJSONText.text(&rng) }

    /// The whole-text fast path writes what the byte-at-a-time one writes, and JSON reads it back.
    @Test func appendsWhatTheByteAtATimeWayDoes() async {
        await propertyCheck(count: 500, input: Self.texts) { text in
            var fast: [UInt8] = [0x5B]
            var plain: [UInt8] = [0x5B]
            JSONEscaper.append(text, to: &fast)
            JSONEscaper.appendEscaping(text, to: &plain)
            #expect(fast == plain)
            #expect((try? JSONDecoder().decode([String].self, from: Data(fast + [0x5D]))) == [text])
        }
    }

    @Test(arguments: [
        ("people/何amy-10.md", #""people/何amy-10.md""#),
        ("", #""""#),
        ("a\"b", #""a\"b""#),
        ("tab\there", #""tab\there""#),
        ("\u{1}", #""\u0001""#),
    ])
    func quotes(text: String, expected: String) {
        #expect(JSONEscaper.quoted(text) == expected)
    }
}
