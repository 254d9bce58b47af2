/// A row's identity (`RowIdentity`) as a dictionary key, hashed and compared as its UTF-8 bytes. A
/// `String` key hashes its text normalised: for a Form's row, whose identity is its CJK question titles
/// and answers, that was some ten thousand instructions a row, twice a rerun (the last snapshot's
/// chains, then this run's look-ups). Every identity is made in one way (`RowIdentity`) from
/// normalised text (`Text.normalize`), so equal identities have equal bytes; were one ever spelt in
/// other bytes, its row would not match by identity and would be paired by group, person and item
/// instead (`LeftoverPairing`): shown as changed, never lost.
struct IdentityKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (left: IdentityKey, right: IdentityKey) -> Bool {
        Text.withUTF8(left.text) { left in
            Text.withUTF8(right.text) { right in left.elementsEqual(right) }
        }
    }

    func hash(into hasher: inout Hasher) {
        Text.withUTF8(text) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
