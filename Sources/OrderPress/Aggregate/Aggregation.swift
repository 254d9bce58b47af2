import Foundation

/// Totals per group and per person, exact in each order's currency.
public struct Aggregation: Sendable, Equatable {
    public var groups: [GroupSummary]
    /// Everyone with a valid order, sorted by their identifying key.
    public var people: [PersonSummary]
    /// All valid orders summed per currency.
    public var grandTotals: [String: Decimal]
}

/// One group's orders and totals, in the group's currency.
public struct GroupSummary: Sendable, Equatable {
    public var group: Group
    /// The group's orders in sheet order.
    public var orders: [Order]
    /// Identical item and options summed, as the organiser reads them out to the shop.
    public var shopSheet: [ShopLine]
    /// Per-person totals, sorted by the person's key.
    public var people: [PersonTotal]
    public var total: Decimal
    /// Sum of quantities.
    public var items: Int

    public var currency: String { group.currency }
}

/// "3 × 熟成紅茶 L 半糖 少冰".
public struct ShopLine: Sendable, Equatable {
    public var item: String
    public var options: [String]
    public var quantity: Int

    /// The line as the organiser reads it out.
    public var text: String { (["\(quantity) ×", item] + options).joined(separator: " ") }
}

/// A person's orders within one group.
public struct PersonTotal: Sendable, Equatable {
    public var key: String
    public var name: String
    public var orders: Int
    public var total: Decimal
}

/// A person's orders across all groups.
public struct PersonSummary: Sendable, Equatable {
    public var key: String
    /// The name as first written in the sheet.
    public var name: String
    /// Their orders in sheet order.
    public var orders: [Order]
    /// Exact totals per currency.
    public var totals: [String: Decimal]
}
