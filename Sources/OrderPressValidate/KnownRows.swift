import OrderPressSupport

/// What the last snapshot knew of the rows it was made from, as validation reads it: the context its
/// records were made under, and the fingerprint of each valid record's row. Under the same context a
/// row with one of those fingerprints validates to that record again (`RowContext`), so validation
/// hands the diff only what the diff reads of it to keep that record (`KeptRow`), its identity the record's
/// when the rule made it the same way (`identity(at:byID:rule:)`).
package struct KnownRows: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The last snapshot's context as it stores it (`RowContext.keyed(by:)`).
    package var context: Digest128
    /// The state folder's key the context was made with (`SecretKey`): this run's context is compared
    /// made the same way. Never shown (see `description`).
    package var key: [UInt8]
    /// For each of the last snapshot's records, in order, the fingerprint of the row a valid record was
    /// made from; `none` for a rejected record or one whose row is unknown. An array in the records' order,
    /// not a table: rows mostly keep their places, and a million of them are 16 MB.
    package var validRows: [Digest128]
    /// For each of those records, in order, its identity's key and whether it is by id (`Identity.isID`);
    /// empty when not known, and then every kept row's identity is made again.
    package var identities: [IdentityKey]
    package var byID: [Bool]

    /// No row's fingerprint (the first 16 bytes of a SHA-256 are never all zero).
    package static let none = Digest128(high: 0, low: 0)
    /// How far from where it was expected a row is looked for: an edited, added or deleted row moves the
    /// rows after it by one; a sheet sorted otherwise keeps none, and its rows are validated in full.
    package static let reach = 16

    package init(context: Digest128, key: [UInt8], validRows: [Digest128], identities: [IdentityKey] = [], byID: [Bool] = []) {
        self.context = context
        self.key = key
        self.validRows = validRows
        (self.identities, self.byID) = identities.count == validRows.count && byID.count == validRows.count ? (identities, byID) : ([], [])
    }

    /// Whether the rows of `context` are validated under the one the last snapshot's records were made under.
    package func holds(_ context: RowContext) -> Bool {
        context.keyed(by: key) == self.context
    }

    /// The position of a valid record made from a row with `fingerprint`, looked for at `guess` first and
    /// then ever further from it, up to `reach` either side.
    package func position(of fingerprint: Digest128, near guess: Int) -> Int? {
        guard fingerprint != Self.none else { return nil }
        func holds(_ place: Int) -> Bool { place >= 0 && place < validRows.count && validRows[place] == fingerprint }
        if holds(guess) { return guess }
        for distance in 1...Self.reach {
            if holds(guess + distance) { return guess + distance }
            if holds(guess - distance) { return guess - distance }
        }
        return nil
    }

    /// The identity of the record at `position`, for a row that keeps it (the same cells under the same
    /// context: the same id and values, and `rule` the one it was made by) and whose identity is by id
    /// when `byID`: nil when that record's is not (an id that became shared, or no longer is, makes
    /// another identity of the same cells), or when it is not known.
    package func identity(at position: Int, byID: Bool, rule: RowIdentity) -> Identity? {
        guard position >= 0, position < identities.count, self.byID[position] == byID else { return nil }
        return Identity(key: identities[position], byID: byID, rule: rule)
    }

    public var description: String { "KnownRows(\(validRows.count) records)" }
    public var debugDescription: String { description }
    /// `dump` and the debugger do not show the key either.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
