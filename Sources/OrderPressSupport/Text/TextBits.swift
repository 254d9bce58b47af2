/// A short text as the two machine words of its `String` value: a key that hashes and compares in a
/// few instructions, where a `String` key hashes the text's normalised Unicode (costly
/// for a CJK word, for every order). Swift keeps a text of up to 15 UTF-8 bytes inside those words, so
/// equal words are equal texts; a longer text's words hold its storage's address, so equal words are
/// still the same text, as long as that storage lives: only use these keys for texts kept alive as long
/// as the keys (the orders being read). Equal texts may have different words (one stored apart, one
/// inside): a look-up by these words can miss, never mistake, so it is only ever a cache in front of a
/// look-up by the text itself.
@usableFromInline
package struct TextBits: Hashable, Sendable, FlatKey {
    private let low: UInt64
    private let high: UInt64

    @usableFromInline
    package var spread: UInt64 { FlatTable<Self>.mix(low, high) }

    /// Nil for a longer text, whose words would be of little use as a cache key.
    @usableFromInline
    package init?(_ text: String) {
        guard text.utf8.count <= 15 else { return nil }
        (low, high) = unsafeBitCast(text, to: (UInt64, UInt64).self)
    }
}
