import Foundation

@testable import OrderPressConfig
@testable import OrderPressValidate

extension PriceText {
    /// Every rule, for any text, without `read`'s fast path for plain digits: what the fast path is held to.
    static func parseInGeneral(_ text: String, shown: String? = nil, separator: DecimalSeparator = .point) -> Result<Decimal, Problem> {
        readInGeneral(text, shown: shown, separator: separator, currency: nil).map(\.value)
    }
}
