import Foundation
import OrderPressFetch
import OrderPressSupport

/// The state a successful build leaves for the next one to compare against.
public struct Snapshot: Codable, Sendable, Equatable {
    /// Bumped whenever the layout changes, so a later version can read or upgrade older snapshots.
    public static let currentVersion = 1

    public var version: Int
    /// Random, kept from run to run, so that secret hashes stay comparable and cannot be looked up.
    public var salt: String
    /// The last run that changed something (ISO 8601).
    public var changedAt: String
    /// The non-secret mapped columns whose values each record keeps.
    public var columns: [String]
    public var secretColumns: [String]
    /// Every row read, valid and rejected, in sheet order.
    public var rows: [RowRecord]
    public var rates: Rates?
    /// What this snapshot's records were made under beyond their rows' cells: the rows' `RowContext` and the
    /// key of the secret hashes. A rerun under the same one keeps the record of a row whose fingerprint
    /// did not change (`Differ`). Nil when unknown (a state older than fingerprints, rows made without a sheet).
    package var context: Digest128? = nil

    public struct Rates: Codable, Sendable, Equatable {
        public var base: String
        public var asOf: String?
        public var source: String
        public var rates: [String: String]

        enum CodingKeys: String, CodingKey {
            case base, source, rates
            case asOf = "as_of"
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, salt, columns, rows, rates
        case changedAt = "changed_at"
        case secretColumns = "secret_columns"
    }
}

extension Snapshot.Rates {
    /// The rates a run used, exact, as the snapshot keeps them.
    package init(_ table: RateTable) {
        self.init(
            base: table.base, asOf: table.asOf.map(Timestamp.iso8601), source: table.source,
            rates: table.rates.mapValues(DecimalText.exact))
    }
}
