import OrderPressSupport

/// A row's identity (`RowIdentity`) as matching compares it: the `Digest128` of its UTF-8 text. Matching a million rows of a Form (no id column: every identity is a dozen question
/// titles and answers, some 230 bytes) held each identity's text twice, this run's and the last
/// snapshot's: half a gigabyte; keys are 16 bytes, made where the text is (`Identity`, the state's read).
///
/// SHA-256 because two identities that collided would pair two different
/// orders. Every identity is made in one way (`RowIdentity`) from normalised text (`Text.normalize`), so
/// equal identities have equal bytes; were one ever spelt in other bytes, its row would not match by
/// identity and would be paired by group, person and item instead (`LeftoverPairing`): shown as
/// changed, never lost.
package struct IdentityKey: Hashable, Sendable {
    package let value: Digest128

    package init(bytes: UnsafeBufferPointer<UInt8>) {
        value = Digest128(sha256Of: UnsafeRawBufferPointer(bytes))
    }

    package init(_ text: String) {
        self = Text.withUTF8(text) { Self(bytes: $0) }
    }
}
