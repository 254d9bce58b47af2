/// A dictionary by text, made once and read from any thread, that finds a text of up to 15 bytes by
/// its words (`TextBits`) before hashing its Unicode: every order names a group and a person, and a
/// `String` key hashes the normalised text (costly for a CJK name). A text equal to a
/// key but stored in other bytes misses the words and is found by the text itself.
public struct TextDictionary<Value: Sendable>: Sendable {
    @usableFromInline let byText: [String: Value]
    @usableFromInline let byBits: [TextBits: Value]

    package init(_ byText: [String: Value]) {
        self.byText = byText
        var byBits: [TextBits: Value] = [:]
        for (text, value) in byText {
            if let bits = TextBits(text) { byBits[bits] = value }
        }
        self.byBits = byBits
    }

    @inlinable
    public subscript(text: String) -> Value? {
        if let bits = TextBits(text), let value = byBits[bits] { return value }
        return byText[text]
    }
}
