/// One row read from the orders sheet, as the snapshot keeps it: normalised values of the mapped
/// columns, secrets only as salted hashes, and what the row meant when it was read.
public struct RowRecord: Codable, Sendable, Equatable {
    /// The sheet row when it was read; rows may move without changing.
    public var row: Int
    public var id: String?
    /// What identifies the row across runs: `id:<id>` when the id is unique in its sheet, else its content.
    public var identity: String
    /// Values of `Snapshot.columns`, in that order.
    public var values: [String]
    /// Salted hashes of `Snapshot.secretColumns` values ("" for an empty cell).
    public var secrets: [String]
    public var rejected: Bool
    /// The order as it was shown (best effort for a rejected row).
    public var group: String
    public var person: String
    public var item: String
    public var options: [String]
    public var quantity: Int
    /// Exact amount in `currency`; nil for a rejected row.
    public var amount: String?
    public var currency: String
    /// When a run first saw this row (ISO 8601).
    public var firstSeen: String

    /// "2 × 四季春青茶 L 無糖 正常冰".
    public var what: String { ShopLine(item: item, options: options, quantity: quantity).text }

    enum CodingKeys: String, CodingKey {
        case row, id, identity, values, secrets, rejected, group, person, item, options, quantity, amount, currency
        case firstSeen = "first_seen"
    }
}
