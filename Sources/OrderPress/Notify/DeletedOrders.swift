/// The orders that `orderpress restore` can put back: those of the last snapshot that the sheet no
/// longer holds (a deletion the mass-deletion guard stopped is still here), then the deletions the
/// history recorded, newest first. Each is printed as a row of the sheet, ready to paste back.
public struct DeletedOrders: Sendable {
    /// The sheet's header, in its order; the snapshot's columns when the sheet could not be read.
    public var headers: [String]
    /// The columns whose values each record keeps (`Snapshot.columns`).
    public var columns: [String]
    /// Newest first, each once.
    public var records: [RowRecord]
    /// Why only the history was searched (the sheet could not be read), if it was.
    public var problem: String?

    public init(headers: [String], columns: [String], records: [RowRecord], problem: String? = nil) {
        self.headers = headers
        self.columns = columns
        var seen = Set<[String]>()
        // A deletion both pending and in the history (or recorded twice) is one order to put back.
        self.records = records.filter { seen.insert([$0.identity] + $0.values).inserted }
        self.problem = problem
    }

    /// The records `order` names: an id, or "person item" (spaces and case do not matter).
    public func matching(_ order: String) -> [RowRecord] {
        let wanted = Self.folded(order)
        return records.filter { record in
            record.id.map(Self.folded) == wanted || Self.folded("\(record.person) \(record.item)") == wanted
        }
    }

    /// Up to `limit` records nearest to `order`, as "id 2 Ben 珍珠奶茶" or "Ben 珍珠奶茶", for the message
    /// that says nothing matched.
    public func closest(to order: String, limit: Int = 3) -> [String] {
        let wanted = Array(Self.folded(order))
        let scored = records.map { record -> (String, Int) in
            let name = "\(record.person) \(record.item)"
            var distance = Spelling.distance(wanted, Array(Self.folded(name)))
            if let id = record.id { distance = min(distance, Spelling.distance(wanted, Array(Self.folded(id)))) }
            return ((record.id.map { "id \($0) " } ?? "") + name, distance)
        }
        var seen = Set<String>()
        return scored.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
            .map(\.element.0).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }

    /// The record as one row of the sheet, tab-separated, in `headers` order. A column the snapshot does
    /// not keep — a secret such as an edit code, or a column OrderPress does not map — is left empty;
    /// a tab or line break inside a value becomes a space, so that the row pastes as one row.
    public func row(_ record: RowRecord) -> String { cells(record).joined(separator: "\t") }

    /// `row`'s cells, for a printer that escapes each before joining them with tabs.
    public func cells(_ record: RowRecord) -> [String] {
        let values = Dictionary(zip(columns, record.values), uniquingKeysWith: { first, _ in first })
        return headers.map { header in (values[header] ?? "").replacing(/[\t\r\n]/, with: " ") }
    }

    static func folded(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }
}
