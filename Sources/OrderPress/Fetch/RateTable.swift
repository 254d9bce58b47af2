import Foundation

/// Exchange rates against one base currency: `rates[X]` units of X buy one unit of `base`.
public struct RateTable: Sendable, Equatable {
    public var base: String
    public var rates: [String: Decimal]
    /// The newest timestamp the feed states for its rates.
    public var asOf: Date?
    /// The feed's format name (`rter`, `ecb`, `json`).
    public var source: String
    /// True when the feed failed and the last good copy was used instead.
    public var fromCache = false

    public init(base: String, rates: [String: Decimal], asOf: Date?, source: String) {
        var rates = rates
        rates[base] = 1
        self.base = base
        self.rates = rates
        self.asOf = asOf
        self.source = source
    }

    /// The exact factor that turns an amount in `from` into `to` (cross rate through the base),
    /// or nil when either currency is missing from the table.
    public func factor(from: String, to: String) -> Decimal? {
        if from == to { return 1 }
        guard let fromRate = rates[from], let toRate = rates[to], fromRate > 0 else { return nil }
        return toRate / fromRate
    }
}
