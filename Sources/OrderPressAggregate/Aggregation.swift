import Foundation
import OrderPressSupport
import OrderPressValidate

/// Totals per group and per person, exact in each order's currency.
public struct Aggregation: Sendable, Equatable {
    public var groups: [GroupSummary]
    /// Everyone with a valid order, sorted by their identifying key.
    public var people: [PersonSummary]
    /// All valid orders summed per currency.
    public var grandTotals: [String: Decimal]
    /// The sheet has a `paid` column: payments are shown.
    public var tracksPayments = false
    /// What every group still expects, summed per currency.
    public var grandOutstanding: [String: Decimal] = [:]
    /// `grandTotals` and `grandOutstanding`, all of it in each display currency.
    public var convertedGrandTotals: [ConvertedAmount] = []
    public var convertedGrandOutstanding: [ConvertedAmount] = []
    /// One unit of the base currency in each display currency other than the base, for the rates page.
    public var baseUnit: [ConvertedAmount] = []
}

/// One group's orders and totals, in the group's currency.
public struct GroupSummary: Sendable, Equatable {
    public var group: Group
    /// The group's orders in sheet order.
    public var orders: OrderList
    /// Identical item and options summed, as the organiser reads them out to the shop.
    public var shopSheet: [ShopLine]
    /// Per-person totals, sorted by the person's key.
    public var people: [PersonTotal]
    public var total: Decimal
    /// Sum of quantities.
    public var items: Int
    /// The exact sum of the group's paid orders, and of the organiser's whole part when they are settled.
    public var paid: Decimal = 0
    /// The fee and discount as allocated to the group's people (`MoneyShares`), in whole minor units;
    /// 0 without people. `total` includes both: it is the orders' sum plus `fee` less `discount`.
    public var fee: Decimal = 0
    public var discount: Decimal = 0
    /// `total` in each display currency.
    public var converted: [ConvertedAmount] = []
    /// The person key of its organiser when their orders here count as paid (`[rounds] organizer_settled`
    /// on, and they ordered in it): the one of `people` that is `settled`. Nil otherwise.
    public var settledOrganizer: String?
    /// What everyone still owes the organiser.
    public var outstanding: Decimal { total - paid }
    /// The orders alone, before the fee and the discount.
    public var subtotal: Decimal { total - fee + discount }

    public var currency: String { group.currency }
}

/// A person's orders within one group.
public struct PersonTotal: Sendable, Equatable {
    public var key: String
    public var name: String
    public var orders: Int
    /// Their orders plus their fee share less their discount share.
    public var total: Decimal
    /// Their paid orders; all of `total` when they organise the group and are settled.
    public var paid: Decimal = 0
    /// `total` in each display currency.
    public var converted: [ConvertedAmount] = []
    /// Their parts of the group's fee and discount (`MoneyShares`), boxed (`FeeShares`).
    var shares = FeeShares.none
    public var feeShare: Decimal {
        get { shares.fee }
        set { shares = FeeShares(fee: newValue, discount: shares.discount) }
    }
    public var discountShare: Decimal {
        get { shares.discount }
        set { shares = FeeShares(fee: shares.fee, discount: newValue) }
    }
    /// They organise the group and `organizer_settled` is on: they owe nobody for it.
    public var settled = false

    public var outstanding: Decimal { total - paid }
    /// Their orders alone.
    public var subtotal: Decimal { total - feeShare + discountShare }
}

/// A person's orders across all groups.
public struct PersonSummary: Sendable, Equatable {
    /// `PersonKey.text`.
    public var key: String
    /// The name as their rows write it: the spelling most use, when they write it more than one way (`PersonSpellings`).
    public var name: String
    /// Their orders in sheet order.
    public var orders: OrderList
    /// Per currency they ordered in (in order of first use): a short array, not two dictionaries
    /// for every person (a hundred thousand of them at a million orders).
    package var currencyShares: [CurrencyShare]
    /// Per group they ordered in (in order of first order), the same way.
    package var groupShares: [GroupShare]
    /// `totals` and `outstanding`, all of it in each display currency.
    public var converted: [ConvertedAmount] = []
    public var convertedOutstanding: [ConvertedAmount] = []

    package struct CurrencyShare: Sendable, Equatable {
        package var currency: String
        package var total: Decimal
        /// The unpaid part of `total`.
        package var outstanding: Decimal
    }

    package struct GroupShare: Sendable, Equatable {
        /// The group's name (as the orders write it).
        package var group: String
        /// In the group's currency, with their fee share and less their discount share.
        package var total: Decimal
        /// The unpaid orders, plus the fee share less the discount share; nil when that is not
        /// positive or they organise the group (settled).
        package var owed: Decimal?
        /// Their parts of the group's fee and discount, boxed (`FeeShares`).
        var shares = FeeShares.none
        /// `total` in the display currencies; empty without them.
        package var converted: [ConvertedAmount]

        package var feeShare: Decimal { shares.fee }
        package var discountShare: Decimal { shares.discount }
    }

    /// Exact totals per currency.
    public var totals: [String: Decimal] { Dictionary(uniqueKeysWithValues: currencyShares.map { ($0.currency, $0.total) }) }
    /// Unpaid amounts per currency, a key for every currency of `totals`.
    public var outstanding: [String: Decimal] { Dictionary(uniqueKeysWithValues: currencyShares.map { ($0.currency, $0.outstanding) }) }
    /// Unpaid amounts by group name (in the group's currency), only where something is owed.
    public var outstandingByGroup: [String: Decimal] {
        Dictionary(uniqueKeysWithValues: groupShares.compactMap { share in share.owed.map { (share.group, $0) } })
    }
    /// Totals by group name, in the group's currency.
    public var totalsByGroup: [String: Decimal] { Dictionary(uniqueKeysWithValues: groupShares.map { ($0.group, $0.total) }) }
    /// Each of `totalsByGroup` in the display currencies.
    public var convertedByGroup: [String: [ConvertedAmount]] {
        Dictionary(uniqueKeysWithValues: groupShares.filter { !$0.converted.isEmpty }.map { ($0.group, $0.converted) })
    }
}
