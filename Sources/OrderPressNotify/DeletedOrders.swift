import OrderPressDiff
import OrderPressRender
import OrderPressSupport

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
    /// The orders' time column: its Sheets serials are printed as pages show times.
    public var timeColumn: String?

    public init(headers: [String], columns: [String], records: [RowRecord], problem: String? = nil) {
        self.headers = headers
        self.columns = columns
        var seen = Set<[String]>()
        // A deletion both pending and in the history (or recorded twice) is one order to put back.
        self.records = records.filter { seen.insert([$0.identity] + $0.values).inserted }
        self.problem = problem
    }

    /// The records `order` names (spaces and case do not matter), by the first of these rules that any
    /// record answers to: its id; its person's whole name, alone or followed by its item ("ben o'neil",
    /// "Ben O'Neil 珍珠奶茶"); whole words of the name, alone or followed by its item ("ben", "o'neil 珍珠奶茶"
    /// for Ben O'Neil). Never part of a word ("en" names nobody): a restored row is pasted back into the
    /// sheet, so a loose match could put back an order nobody asked for. More than one record is for the
    /// caller to list, not to pick from.
    public func matching(_ order: String) -> [RowRecord] {
        let wanted = Self.folded(order)
        let words = wanted.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return [] }
        let byId = records.filter { $0.id.map(Self.folded) == wanted }
        if !byId.isEmpty { return byId }
        let byName = records.filter { Self.names($0, words, wholeName: true) }
        if !byName.isEmpty { return byName }
        return records.filter { Self.names($0, words, wholeName: false) }
    }

    /// Whether `words` are the record's person (the whole name, or a run of its whole words), optionally
    /// followed by its item.
    private static func names(_ record: RowRecord, _ words: [String], wholeName: Bool) -> Bool {
        let name = folded(record.person).split(separator: " ").map(String.init)
        let item = folded(record.item)
        for end in 1...words.count {
            let rest = words[end...].joined(separator: " ")
            guard rest.isEmpty || rest == item else { continue }
            let part = Array(words[..<end])
            if wholeName ? part == name : contains(name, run: part) { return true }
        }
        return false
    }

    /// Whether `run` is a run of consecutive elements of `words`.
    private static func contains(_ words: [String], run: [String]) -> Bool {
        guard run.count <= words.count else { return false }
        return (0...(words.count - run.count)).contains { Array(words[$0..<($0 + run.count)]) == run }
    }

    /// A record as the messages name it: "id 2 Ben 珍珠奶茶", or "Ben 珍珠奶茶" without an id.
    public static func label(_ record: RowRecord) -> String {
        (record.id.map { "id \($0) " } ?? "") + "\(record.person) \(record.item)"
    }

    /// Up to `limit` records nearest to `order`, as `label` names them, for the message that says nothing
    /// matched.
    public func closest(to order: String, limit: Int = 3) -> [String] {
        let wanted = Array(Self.folded(order))
        let scored = records.map { record -> (String, Int) in
            var distance = Spelling.distance(wanted, Array(Self.folded("\(record.person) \(record.item)")))
            if let id = record.id { distance = min(distance, Spelling.distance(wanted, Array(Self.folded(id)))) }
            return (Self.label(record), distance)
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
        // Guarded like orders.csv: pasted into the sheet, a cell starting with `=` would run as a formula.
        return headers.map { header in
            let value = values[header] ?? ""
            if header == timeColumn, let shown = SheetSerial.shown(value) { return shown }
            return OrdersCSV.neutralized(value).replacing(/[\t\r\n]/, with: " ")
        }
    }

    static func folded(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }
}
