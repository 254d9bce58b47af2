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

        init(identity: IdentityKey, digest: RecordDigest, row: Int, firstSeen: String, rejected: Bool) {
            self.identity = identity
            self.digest = digest
            self.row = row
            self.firstSeen = firstSeen
            self.rejected = rejected
        }

        init(_ record: RowRecord, digest: RecordDigest) {
            self.init(identity: record.identityValue.key, digest: digest, row: record.row, firstSeen: record.firstSeen, rejected: record.rejected)
        }

        /// Whether this is the stamp of `record` with `digest`, read without making that stamp.
        func stamps(_ record: borrowing RowRecord, digest: RecordDigest) -> Bool {
            self.digest == digest && row == record.row && rejected == record.rejected && identity == record.identityValue.key
                && firstSeen == record.firstSeen
        }
    }

    init(header: Snapshot, records: [Stamp]) {
        var header = header
        header.rows = []
        self.header = header
        self.records = records
    }

    /// `digests` are the records', when already known.
    init(_ snapshot: Snapshot, digests: [RecordDigest]? = nil) {
        let digests = digests ?? snapshot.rows.map(RecordDigest.init)
        self.init(header: snapshot, records: zip(snapshot.rows, digests).map { Stamp($0, digest: $1) })
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
