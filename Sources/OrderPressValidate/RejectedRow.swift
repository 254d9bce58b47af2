import OrderPressSupport

/// A row that cannot be used, with every reason, kept for the Attention page.
public struct RejectedRow: Sendable, Equatable {
    public var row: Int
    /// The mapped columns' values in configuration order; secrets masked as `•••`.
    public var values: [Cell]
    /// In English, for the terminal and `summary.json`.
    public var reasons: [String]
    /// The same reasons with their codes and values, for the pages (in the site's language) and
    /// `summary.json`'s `codes`; empty for a row made without them (older state, tests).
    public var details: [Reason] = []
    /// The (normalised) person and group its cells name, "" when it shows no cells: whose page lists it.
    /// Set with `name(person:key:group:)`, which keeps `personKey` with `person`.
    public private(set) var person = ""
    public private(set) var group = ""
    /// `person` as people are told apart (`Order.personKey`), made once
    /// with the row: the person page that lists it (`RejectedIndex`), a person who needs no tombstone
    /// (`Tombstones`).
    public private(set) var personKey = PersonKey.none

    public struct Cell: Sendable, Equatable {
        public var column: String
        public var value: String
    }

    /// Equal when they say the same: each English reason is made from its code and values.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.row == rhs.row && lhs.values == rhs.values && lhs.reasons == rhs.reasons
    }

    public init(row: Int, values: [Cell], reasons: [String]) {
        self.row = row
        self.values = values
        self.reasons = reasons
    }

    public init(row: Int, values: [Cell], details: [Reason]) {
        self.init(row: row, values: values, reasons: details.map(\.english))
        self.details = details
    }

    /// The person and group its cells name; `key` is the person's key, as the row's order has it.
    package mutating func name(person: String, key: PersonKey, group: String) {
        (self.person, personKey, self.group) = (person, key, group)
    }
}
