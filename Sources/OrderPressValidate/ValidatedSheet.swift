import OrderPressFetch

/// Validation's whole output: what the site shows (`data`), and apart from it what only the diff reads,
/// every row as the diff compares it and the secret cells. The diff consumes it and hands `data` on
/// (`DiffResult`): at a million orders the rows are hundreds of MB, and nothing that renders pages
/// ever holds them or a secret.
public struct ValidatedSheet: Sendable {
    /// The orders, groups and rejected rows: what aggregate, render and the report read.
    public var data: ValidatedData
    /// Every row whose cells could be matched to columns, valid and rejected, in sheet order: what the diff
    /// compares. A row the last snapshot holds a valid record of (`KnownRows`) is only `SheetRow.kept`.
    package var rows: [SheetRow]
    /// The non-secret mapped columns the sheet has, in configuration order: the columns of `ValidatedRow.values`.
    public var columns: [String]
    /// The secret cells of `rows`, in the same order (none for a kept row).
    public var secrets: SecretCells
    /// The fingerprint of each of `rows`' cells as the sheet gave them, in the same order; empty for rows
    /// made without a sheet.
    package var fingerprints = RowFingerprints([])
    /// What each row's validation depended on beyond its cells (`RowContext`); nil for rows made without a sheet.
    package var context: RowContext? = nil
    /// How many of `rows` are kept rows: validated no further than their orders.
    package var keptRows = 0

    public init(data: ValidatedData, rows: [ValidatedRow] = [], columns: [String] = [], secrets: SecretCells) {
        self.data = data
        self.rows = rows.map { .validated($0) }
        self.columns = columns
        self.secrets = secrets
    }
}
