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
    /// Each line of the shop sheet as the place in `orders` of its first order and the quantity summed:
    /// 16 bytes, not a `ShopLine`'s 56 (a million lines at a million Form rows, nearly one per order).
    package var shopLines: [ShopLinePlace]
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

    /// Identical item and options summed, as the organiser reads them out to the shop: made from
    /// `shopLines` when read (a group's page reads it once).
    public var shopSheet: [ShopLine] {
        shopLines.map { line in
            orders.withOrder(at: Int(line.first)) {
                ShopLine(item: $0.pointee.item, options: $0.pointee.options, quantity: line.quantity, unitPrice: $0.pointee.unitPrice)
            }
        }
    }

    package struct ShopLinePlace: Sendable, Equatable {
        /// The line's first order's place in the group's `orders`: its item, options and unit price.
        package var first: UInt32
        package var quantity: Int
    }
}

/// A person's orders within one group.
public struct PersonTotal: Sendable, Equatable {
    public var key: String
    public var name: String
    /// `total`, `paid`, `feeShare` and `discountShare`, packed (`PackedDecimals`): a million of these
    /// at a million Form rows.
    private var amounts = PackedDecimals()
    private var orderCount: UInt32
    /// They organise the group and `organizer_settled` is on: they owe nobody for it.
    public var settled = false
    /// `total` in each display currency.
    public var converted: [ConvertedAmount] = []

    public init(
        key: String, name: String, orders: Int, total: Decimal, paid: Decimal = 0, converted: [ConvertedAmount] = [], settled: Bool = false
    ) {
        self.key = key
        self.name = name
        orderCount = UInt32(orders)
        self.converted = converted
        self.settled = settled
        self.total = total
        self.paid = paid
    }

    /// The person's sums as the aggregation made them, each stored without making its `Decimal` first.
    init(key: String, name: String, orders: Int, total: ExactSum, paid: ExactSum) {
        self.key = key
        self.name = name
        orderCount = UInt32(orders)
        amounts.set(0, to: total)
        amounts.set(1, to: paid)
    }

    public var orders: Int {
        get { Int(orderCount) }
        set { orderCount = UInt32(newValue) }
    }
    /// Their orders plus their fee share less their discount share.
    public var total: Decimal {
        get { amounts[0]! }
        set { amounts[0] = newValue }
    }
    /// Their paid orders; all of `total` when they organise the group and are settled.
    public var paid: Decimal {
        get { amounts[1]! }
        set { amounts[1] = newValue }
    }
    /// Their parts of the group's fee and discount (`MoneyShares`).
    public var feeShare: Decimal {
        get { amounts[2]! }
        set { amounts[2] = newValue }
    }
    public var discountShare: Decimal {
        get { amounts[3]! }
        set { amounts[3] = newValue }
    }
    /// Both parts at once.
    var shares: FeeShares {
        get { FeeShares(fee: feeShare, discount: discountShare) }
        set { (feeShare, discountShare) = (newValue.fee, newValue.discount) }
    }

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
        /// `total`, `owed`, `feeShare` and `discountShare`, packed (`PackedDecimals`): one share per
        /// (group, person) pair, a million at a million Form rows.
        private var amounts = PackedDecimals()
        /// `total` in the display currencies; empty without them.
        package var converted: [ConvertedAmount]

        init(group: String, total: Decimal, owed: Decimal?, shares: FeeShares = .none, converted: [ConvertedAmount]) {
            self.group = group
            self.converted = converted
            self.total = total
            self.owed = owed
            (feeShare, discountShare) = (shares.fee, shares.discount)
        }

        /// The share of the sums the aggregation made, each stored without making its `Decimal` first.
        init(group: String, total: ExactSum, owed: ExactSum?, shares: FeeShares = .none, converted: [ConvertedAmount]) {
            self.group = group
            self.converted = converted
            amounts.set(0, to: total)
            if let owed { amounts.set(1, to: owed) } else { amounts[1] = nil }
            (feeShare, discountShare) = (shares.fee, shares.discount)
        }

        /// In the group's currency, with their fee share and less their discount share.
        package var total: Decimal {
            get { amounts[0]! }
            set { amounts[0] = newValue }
        }
        /// The unpaid orders, plus the fee share less the discount share; nil when that is not
        /// positive or they organise the group (settled).
        package var owed: Decimal? {
            get { amounts[1] }
            set { amounts[1] = newValue }
        }
        /// Their parts of the group's fee and discount.
        package private(set) var feeShare: Decimal {
            get { amounts[2]! }
            set { amounts[2] = newValue }
        }
        package private(set) var discountShare: Decimal {
            get { amounts[3]! }
            set { amounts[3] = newValue }
        }
        /// Both parts at once.
        var shares: FeeShares { FeeShares(fee: feeShare, discount: discountShare) }
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
