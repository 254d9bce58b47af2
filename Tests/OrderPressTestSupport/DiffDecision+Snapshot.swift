@testable import OrderPressDiff

extension SnapshotRecords {
    /// Every record in sheet order, a kept one as only its sheet row and whether it is rejected (none of
    /// its fields, which stay as the state stores them).
    package var all: [RowRecord] {
        indices.map { position in
            guard keptFrom(position) != nil else { return self[position] }
            return RowRecord(
                row: row(position), id: nil, identity: "", values: [], secrets: [], rejected: rejected(position), group: "", person: "",
                item: "", options: [], quantity: 0, amount: nil, currency: "", firstSeen: "")
        }
    }
}

extension DiffDecision {
    /// The snapshot with its records (`SnapshotRecords.all`).
    package var snapshot: Snapshot {
        var snapshot = header
        snapshot.rows = records.all
        return snapshot
    }
}
