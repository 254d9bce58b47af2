import OrderPressValidate

/// One row read from the orders sheet, as the snapshot keeps it: normalised values of the mapped
/// columns, secrets only as salted hashes, and what the row meant when it was read.
public struct RowRecord: Sendable {
    /// The sheet row when it was read; rows may move without changing.
    public var row: Int
    public var id: String? {
        didSet { keepIdentity(id: oldValue, values: values) }
    }
    /// What identifies the row across runs and matches it (`Identity`): its text is made from `id` or
    /// `values` when asked for.
    package private(set) var identityValue: Identity
    /// Values of `Snapshot.columns`, in that order.
    public var values: [String] {
        didSet { keepIdentity(id: id, values: oldValue) }
    }
    /// Salted hashes of `Snapshot.secretColumns` values.
    public var secrets: [SecretHash]
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

    package init(
        row: Int, id: String?, identity: Identity, values: [String], secrets: [SecretHash], rejected: Bool, group: String,
        person: String, item: String, options: [String], quantity: Int, amount: String?, currency: String, firstSeen: String
    ) {
        self.row = row
        self.id = id
        self.identityValue = identity
        self.values = values
        self.secrets = secrets
        self.rejected = rejected
        self.group = group
        self.person = person
        self.item = item
        self.options = options
        self.quantity = quantity
        self.amount = amount
        self.currency = currency
        self.firstSeen = firstSeen
    }

    public init(
        row: Int, id: String?, identity: String, values: [String], secrets: [SecretHash], rejected: Bool, group: String,
        person: String, item: String, options: [String], quantity: Int, amount: String?, currency: String, firstSeen: String
    ) {
        self.init(
            row: row, id: id, identity: Identity(text: identity), values: values, secrets: secrets, rejected: rejected, group: group,
            person: person, item: item, options: options, quantity: quantity, amount: amount, currency: currency, firstSeen: firstSeen)
    }

    /// `id:<id>` when the id is unique in its sheet, else `content:` and its content (`RowIdentity`).
    public var identity: String {
        get { identityValue.text(id: id, values: values) }
        set { identityValue = Identity(text: newValue) }
    }

    /// An identity made from the id or values stays what it was when they change.
    private mutating func keepIdentity(id: String?, values: [String]) {
        if case .text = identityValue.source { return }
        identityValue = Identity(text: identityValue.text(id: id, values: values))
    }

    /// "2 × 四季春青茶 L 無糖 正常冰".
    public var what: String { ShopLine(item: item, options: options, quantity: quantity).text }
}

/// As the state and the history store a record: its identity as text.
extension RowRecord: Codable {
    enum CodingKeys: String, CodingKey {
        case row, id, identity, values, secrets, rejected, group, person, item, options, quantity, amount, currency
        case firstSeen = "first_seen"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            row: try container.decode(Int.self, forKey: .row), id: try container.decodeIfPresent(String.self, forKey: .id),
            identity: try container.decode(String.self, forKey: .identity), values: try container.decode([String].self, forKey: .values),
            secrets: try container.decode([SecretHash].self, forKey: .secrets), rejected: try container.decode(Bool.self, forKey: .rejected),
            group: try container.decode(String.self, forKey: .group), person: try container.decode(String.self, forKey: .person),
            item: try container.decode(String.self, forKey: .item), options: try container.decode([String].self, forKey: .options),
            quantity: try container.decode(Int.self, forKey: .quantity), amount: try container.decodeIfPresent(String.self, forKey: .amount),
            currency: try container.decode(String.self, forKey: .currency), firstSeen: try container.decode(String.self, forKey: .firstSeen))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(row, forKey: .row)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(identity, forKey: .identity)
        try container.encode(values, forKey: .values)
        try container.encode(secrets, forKey: .secrets)
        try container.encode(rejected, forKey: .rejected)
        try container.encode(group, forKey: .group)
        try container.encode(person, forKey: .person)
        try container.encode(item, forKey: .item)
        try container.encode(options, forKey: .options)
        try container.encode(quantity, forKey: .quantity)
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encode(currency, forKey: .currency)
        try container.encode(firstSeen, forKey: .firstSeen)
    }
}

/// Equal when every field is, the identity by its text.
extension RowRecord: Equatable {
    public static func == (left: RowRecord, right: RowRecord) -> Bool {
        left.identityValue == right.identityValue && left.row == right.row && left.id == right.id && left.values == right.values
            && left.secrets == right.secrets && left.rejected == right.rejected && left.group == right.group
            && left.person == right.person && left.item == right.item && left.options == right.options
            && left.quantity == right.quantity && left.amount == right.amount && left.currency == right.currency
            && left.firstSeen == right.firstSeen
    }
}
