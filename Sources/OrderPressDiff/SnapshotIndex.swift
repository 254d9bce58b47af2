import OrderPressSupport
import OrderPressValidate

/// The last snapshot as a rerun compares against it: the snapshot's header, and of each record only
/// what matching and saving need. At a million orders the records in full cost over a gigabyte to
/// read; this costs tens of megabytes, and `PreviousSnapshot` reads in full only the records that differ.
package struct SnapshotIndex: Sendable, Equatable {
    /// The snapshot with no rows: version, salt, columns, rates, when it last changed.
    package var header: Snapshot
    /// One per record, in sheet order.
    package var records: [Stamp]

    /// One record, as its position in the snapshot is compared across runs.
    package struct Stamp: Sendable, Equatable {
        package var identity: IdentityKey
        package var digest: RecordDigest
        package var row: Int
        package var firstSeen: String
        package var rejected: Bool
        /// Whether its identity is by id (`Identity.isID`): with its key, what a row validation keeps this
        /// record for takes as its identity when its own would be by id too (`KnownRows`).
        package var byID: Bool
        /// Where the state keeps the record (`SlotPlan`): its key in the database, whatever its position.
        package var slot: Int
        /// The fingerprint of the sheet row the record was made from (`RowFingerprints`); nil when unknown.
        package var fingerprint: Digest128?

        package init(
            identity: IdentityKey, digest: RecordDigest, row: Int, firstSeen: String, rejected: Bool, byID: Bool = false, slot: Int = 0,
            fingerprint: Digest128? = nil
        ) {
            self.identity = identity
            self.byID = byID
            self.digest = digest
            self.row = row
            self.firstSeen = firstSeen
            self.rejected = rejected
            self.slot = slot
            self.fingerprint = fingerprint
        }

        package init(_ record: RowRecord, digest: RecordDigest, slot: Int = 0, fingerprint: Digest128? = nil) {
            self.init(
                identity: record.identityValue.key, digest: digest, row: record.row, firstSeen: record.firstSeen, rejected: record.rejected,
                byID: record.identityValue.isID, slot: slot, fingerprint: fingerprint)
        }

        /// Whether this is the stamp of `record` with `digest`, made from a row with `fingerprint`, but for
        /// its sheet row, read without making that stamp: a record that only moved keeps its slot, and the
        /// order alone records the move. A record kept under another fingerprint is written again, so that
        /// every stored fingerprint is that of the row the record was last made from.
        package func stamps(_ record: borrowing RowRecord, digest: RecordDigest, fingerprint: Digest128?) -> Bool {
            self.digest == digest && rejected == record.rejected && identity == record.identityValue.key && firstSeen == record.firstSeen
                && self.fingerprint == fingerprint
        }
    }

    package init(header: Snapshot, records: [Stamp]) {
        var header = header
        header.rows = []
        self.header = header
        self.records = records
    }

    /// `digests` are the records', when already known. Each record in the slot of its position, as a
    /// state written afresh keeps them.
    package init(_ snapshot: Snapshot, digests: [RecordDigest]? = nil) {
        let digests = digests ?? snapshot.rows.map(RecordDigest.init)
        self.init(header: snapshot, records: snapshot.rows.indices.map { Stamp(snapshot.rows[$0], digest: digests[$0], slot: $0) })
    }

    /// The snapshot's valid orders, as the deletion guard counts them.
    var validCount: Int { records.count { !$0.rejected } }
}

/// The last snapshot: its index in memory, its records read when asked for.
package struct PreviousSnapshot: Sendable {
    package var index: SnapshotIndex
    /// `index`'s records by identity.
    package var chains: IdentityChains
    /// The records at these positions, in that order.
    package var records: @Sendable ([Int]) throws(DataError) -> [RowRecord]

    /// `chains`, when given, are `index`'s.
    package init(index: SnapshotIndex, chains: IdentityChains? = nil, records: @escaping @Sendable ([Int]) throws(DataError) -> [RowRecord]) {
        self.index = index
        self.chains = chains ?? IdentityChains(index.records)
        self.records = records
    }

    /// A snapshot already in memory whole.
    package init(_ snapshot: Snapshot) {
        self.init(index: SnapshotIndex(snapshot)) { positions in positions.map { snapshot.rows[$0] } }
    }
}
