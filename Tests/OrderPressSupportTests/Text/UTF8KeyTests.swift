import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// Texts as keys by their bytes: equal exactly when their UTF-8 is, unlike `String`, which equates the
/// composed and decomposed forms of the same letters.
@Suite struct UTF8KeyTests {
    @Test(arguments: [
        ("people/王小明.html", "people/王小明.html", true),
        ("café", "cafe\u{301}", false),
        ("", "", true),
        ("a", "", false),
        ("王", "玉", false),
    ])
    func equalExactlyWhenTheBytesAre(left: String, right: String, equal: Bool) {
        #expect((UTF8Key(left) == UTF8Key(right)) == equal)
        #expect((UTF8Key(left) == UTF8Key(right)) == (Array(left.utf8) == Array(right.utf8)))
        if equal { #expect(UTF8Key(left).hashValue == UTF8Key(right).hashValue) }
    }

    @Test func aDictionaryKeepsBothFormsApart() {
        let keys: [UTF8Key: Int] = [UTF8Key("café"): 1, UTF8Key("cafe\u{301}"): 2]
        #expect(keys.count == 2)
        #expect(keys[UTF8Key("cafe\u{301}")] == 2)
        // A `String` key would have taken them for one.
        #expect("café" == "cafe\u{301}")
    }
}
