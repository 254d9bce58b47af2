import Foundation
import OrderPressSupport

/// What the last successful build read and reported, saved with its snapshot: a rerun whose
/// inputs have the same fingerprint reports it again and does nothing else.
public struct LastBuild: Codable, Sendable, Equatable {
    /// The digest of everything the build's files depend on (`BuildInputs`).
    public var fingerprint: String
    /// When its pages would change with no input changing (the rates turning stale), if ever.
    public var validUntil: Date?
    /// The moment after which its pages hold, if they need one: pages flagging stale rates hold only
    /// while the clock stays past the moment the rates turned stale (see `BuildInputs.validity`).
    public var validFrom: Date?
    public var rowsRead = 0
    public var orders = 0
    public var rejected = 0
    public var warnings: [DataWarning] = []
    /// Optional: a record saved before blank rows were counted has none.
    public var blankRows: Int?
    /// Optional: amounts read with their currency's sign (`ValidatedData.amountsWithSign`), for the summary line.
    public var amountsWithSign: Int?

    public init(fingerprint: String, validUntil: Date? = nil, validFrom: Date? = nil, rowsRead: Int = 0, orders: Int = 0, rejected: Int = 0, warnings: [DataWarning] = []) {
        self.fingerprint = fingerprint
        self.validUntil = validUntil
        self.validFrom = validFrom
        self.rowsRead = rowsRead
        self.orders = orders
        self.rejected = rejected
        self.warnings = warnings
    }
}
