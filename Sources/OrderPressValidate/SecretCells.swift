/// The secret cells (edit codes) of every row in `ValidatedSheet.rows`, kept apart from it: the diff
/// needs them to notice a changed code, and nothing that renders pages ever holds them.
public struct SecretCells: Sendable {
    /// The secret mapped columns the sheet has, in configuration order.
    public var columns: [String]
    /// For each of `ValidatedSheet.rows`, in the same order, the values of `columns`.
    package var rows: [[SecretValue]]
}
