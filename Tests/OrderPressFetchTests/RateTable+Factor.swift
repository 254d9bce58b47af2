import Foundation

@testable import OrderPressFetch
import OrderPressTestSupport

extension RateTable {
    /// The factor that turns an amount in `from` into `to` (cross rate through the base), or nil when
    /// either currency is missing: a quotient of 38 digits, which production never converts with
    /// (`crossRate` divides last).
    func factor(from: String, to: String) -> Decimal? {
        crossRate(from: from, to: to)?.factor
    }
}
