import OrderPressSupport

/// What the fetch step hands to validation.
public struct FetchedData: Sendable, Equatable {
    public var orders: SourceTable
    public var groups: SourceTable?
    /// Nil without a `[payments]` source.
    public var payments: SourceTable? = nil
    /// Nil when no rates are configured.
    public var rates: RateTable?
    /// Problems that did not stop the build, such as a rates feed that could not be read.
    public var warnings: [DataWarning]
    /// HTTP requests sent, retries included; cached copies cost none.
    public var requests: Int
    /// `DownloadedSources.fingerprint` of the bytes these were parsed from.
    public var fingerprint: String

    /// The orders table as the only copy, so that validation can let go of its cells as it reads them;
    /// an empty table of the same name is left in its place.
    package mutating func takeOrders() -> SourceTable {
        let orders = self.orders
        self.orders = SourceTable(name: orders.name, headers: [], rows: [])
        return orders
    }
}
