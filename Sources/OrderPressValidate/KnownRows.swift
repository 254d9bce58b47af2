import OrderPressSupport

/// What the last snapshot knew of the rows it was made from, as validation reads it: the context its
/// records were made under, and the fingerprint of each valid record's row. Under the same context a
/// row with one of those fingerprints validates to that record again (`RowContext`), so validation
/// hands the diff only what the diff reads of it to keep that record (`KeptRow`).
package struct KnownRows: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The last snapshot's context as it stores it (`RowContext.keyed(by:)`).
    package var context: Digest128
    /// The state folder's key the context was made with (`SecretKey`): this run's context is compared
    /// made the same way. Never shown (see `description`).
    package var key: [UInt8]
    /// The fingerprint of each valid record's row, and that record's position in the last snapshot (the
    /// first, for rows alike in every cell: their records are alike too).
    package var validRows: [Digest128: Int32]

    package init(context: Digest128, key: [UInt8], validRows: [Digest128: Int32]) {
        self.context = context
        self.key = key
        self.validRows = validRows
    }

    /// Whether the rows of `context` are validated under the one the last snapshot's records were made under.
    package func holds(_ context: RowContext) -> Bool {
        context.keyed(by: key) == self.context
    }

    public var description: String { "KnownRows(\(validRows.count) valid rows)" }
    public var debugDescription: String { description }
    /// `dump` and the debugger do not show the key either.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
