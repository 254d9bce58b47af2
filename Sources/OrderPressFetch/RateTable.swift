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

    /// The cross rate from `from` to `to` as a fraction, or nil when either currency is missing.
    public func crossRate(from: String, to: String) -> CrossRate? {
        if from == to { return CrossRate(times: 1, over: 1) }
        guard let fromRate = rates[from], let toRate = rates[to], fromRate > 0 else { return nil }
        return CrossRate(times: toRate, over: fromRate)
    }

    /// `times / over`, kept as a fraction: dividing the rate first rounds 1/155.52 to 38 digits, and
    /// 12,150 JPY times that is a hair under 78.125 USD, rounded down to 78.12. Multiplied first and
    /// divided last, an exact result stays exact and is rounded once, for display.
    public struct CrossRate: Sendable, Equatable {
        public let times: Decimal
        public let over: Decimal

        public var factor: Decimal { over == 1 ? times : times / over }

        public func convert(_ amount: Decimal) -> Decimal {
            over == 1 ? amount * times : amount * times / over
        }
        package init(times: Decimal, over: Decimal) {
            self.times = times
            self.over = over
        }
    }
}
