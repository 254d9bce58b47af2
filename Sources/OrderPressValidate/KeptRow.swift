import OrderPressSupport

/// A valid row whose cells the last snapshot holds a valid record of, made under the same context
/// (`KnownRows`): the diff keeps that record, so validation hands over only what matching and the
/// record kept read of the row, not its values or its secret cells.
package struct KeptRow: Sendable, Equatable {
    /// The sheet row (header = row 1).
    package var row: Int
    package var id: String?
    /// As `ValidatedRow.identity`: it depends on the other rows' ids, which may have changed.
    package var identity: Identity
    /// The position in the last snapshot of a record made from the same cells (`KnownRows.position(of:near:)`):
    /// what the diff makes this row's record from when its match is another record.
    package var known: Int32
}
