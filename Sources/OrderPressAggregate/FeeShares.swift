import Foundation

/// A person's parts of a group's fee and discount (`MoneyShares`), as the aggregation hands them from a
/// group's sum to the people's. Boxed: most groups have neither. The summaries themselves hold the
/// two amounts packed (`PackedDecimals`), without a box per (group, person) pair.
enum FeeShares: Sendable, Equatable {
    case none
    indirect case some(fee: Decimal, discount: Decimal)

    init(fee: Decimal, discount: Decimal) {
        self = fee == 0 && discount == 0 ? .none : .some(fee: fee, discount: discount)
    }

    var fee: Decimal {
        if case .some(let fee, _) = self { fee } else { 0 }
    }

    var discount: Decimal {
        if case .some(_, let discount) = self { discount } else { 0 }
    }
}
