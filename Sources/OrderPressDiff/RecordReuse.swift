import OrderPressFetch
import OrderPressSupport

/// What a save needs of a new snapshot's records beyond the records themselves: the fingerprint of the
/// sheet row each was made from, and which of them the diff did not make again (`Differ`), each standing
/// for the last snapshot's record at the position it names.
///
/// A record the diff kept is held only as its place (`SnapshotRecords`): its fields and secret hashes stay
/// as the state stores them, and its digest is the last one's. A save keeps it in its slot and never writes
/// it (`SlotPlan`).
package struct RecordReuse: Sendable, Equatable {
    /// Each record's row fingerprint, in order; empty when the rows had none.
    package var fingerprints: RowFingerprints
    /// For each record, in order, the last snapshot's position whose record it stands for, or -1 for a
    /// record made afresh; empty when none was kept.
    package private(set) var kept: [Int32]

    package init(fingerprints: RowFingerprints = RowFingerprints([]), kept: [Int32] = []) {
        self.fingerprints = fingerprints
        self.kept = kept
    }

    /// Nothing known of the records' rows: each is written unless it equals a stored one.
    package static let none = RecordReuse()

    /// The fingerprint of record `position`'s row; nil when unknown.
    package func fingerprint(_ position: Int) -> Digest128? {
        position < fingerprints.count ? fingerprints[position] : nil
    }

    /// How many records the diff kept.
    package var keptCount: Int { kept.count { $0 >= 0 } }
}
