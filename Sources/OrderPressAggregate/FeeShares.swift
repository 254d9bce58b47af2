import Foundation

/// A person's parts of a group's fee and discount (`MoneyShares`). Boxed: most groups have neither,
/// and a site holds one `PersonTotal` and one `PersonSummary.GroupShare` per person and group — two
/// `Decimal`s inline in each raised a large build's peak (docs/benchmarks.md), where a box costs one word and nothing when there are no shares.
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
