/// The last snapshot as a rerun compares against it: the snapshot's header, and of each record only
/// what matching and saving need. At a million orders the records in full cost over a gigabyte to
/// read; this costs tens of megabytes, and `PreviousSnapshot` reads in full only the records that differ.
struct SnapshotIndex: Sendable, Equatable {
    /// The snapshot with no rows: version, salt, columns, rates, when it last changed.
    var header: Snapshot
    /// One per record, in sheet order.
    var records: [Stamp]

    /// One record, as its position in the snapshot is compared across runs.
    struct Stamp: Sendable, Equatable {
        var identity: IdentityKey
        var digest: RecordDigest
        var row: Int
        var firstSeen: String
        var rejected: Bool
        /// Where the state keeps the record (`SlotPlan`): its key in the database, whatever its position.
        var slot: Int

        init(identity: IdentityKey, digest: RecordDigest, row: Int, firstSeen: String, rejected: Bool, slot: Int = 0) {
            self.identity = identity
            self.digest = digest
            self.row = row
            self.firstSeen = firstSeen
            self.rejected = rejected
            self.slot = slot
        }

        init(_ record: RowRecord, digest: RecordDigest, slot: Int = 0) {
            self.init(
                identity: record.identityValue.key, digest: digest, row: record.row, firstSeen: record.firstSeen, rejected: record.rejected,
                slot: slot)
        }

        /// Whether this is the stamp of `record` with `digest` but for its sheet row, read without making
        /// that stamp: a record that only moved keeps its slot, and the order alone records the move.
        func stamps(_ record: borrowing RowRecord, digest: RecordDigest) -> Bool {
            self.digest == digest && rejected == record.rejected && identity == record.identityValue.key && firstSeen == record.firstSeen
        }
    }

    init(header: Snapshot, records: [Stamp]) {
        var header = header
        header.rows = []
        self.header = header
        self.records = records
    }

    /// `digests` are the records', when already known. Each record in the slot of its position, as a
    /// state written afresh keeps them.
    init(_ snapshot: Snapshot, digests: [RecordDigest]? = nil) {
        let digests = digests ?? snapshot.rows.map(RecordDigest.init)
        self.init(header: snapshot, records: snapshot.rows.indices.map { Stamp(snapshot.rows[$0], digest: digests[$0], slot: $0) })
    }

    /// The snapshot's valid orders, as the deletion guard counts them.
    var validCount: Int { records.count { !$0.rejected } }
}

/// The last snapshot: its index in memory, its records read when asked for.
struct PreviousSnapshot: Sendable {
    var index: SnapshotIndex
    /// `index`'s records by identity.
    var chains: IdentityChains
    /// The records at these positions, in that order.
    var records: @Sendable ([Int]) throws(DataError) -> [RowRecord]

    /// `chains`, when given, are `index`'s.
    init(index: SnapshotIndex, chains: IdentityChains? = nil, records: @escaping @Sendable ([Int]) throws(DataError) -> [RowRecord]) {
        self.index = index
        self.chains = chains ?? IdentityChains(index.records)
        self.records = records
    }

    /// A snapshot already in memory whole.
    init(_ snapshot: Snapshot) {
        self.init(index: SnapshotIndex(snapshot)) { positions in positions.map { snapshot.rows[$0] } }
    }
}
