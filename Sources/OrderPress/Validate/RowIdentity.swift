/// The rule that identifies a row across runs: its id when no other row of the sheet uses it, else its
/// content, so that identical rows form a multiset. Paying is not a new order, so neither the `paid`
/// column nor the id itself is content.
struct RowIdentity {
    /// Positions in the row's values of the content columns, in column-name order, found once per table.
    private let content: [(column: String, position: Int)]

    init(columns: [String], idColumn: String, paidColumn: String) {
        content = columns.enumerated().filter { $0.element != idColumn && $0.element != paidColumn }
            .sorted { $0.element < $1.element }.map { ($0.element, $0.offset) }
    }

    /// `id:<id>` or `content:<column>=<value>…`; `idCount` is how many rows of the sheet use `id`.
    func identity(id: String, idCount: Int, values: [String]) -> String {
        if !id.isEmpty, idCount == 1 { return "id:\(id)" }
        return "content:" + content.map { "\($0.column)=\(values[$0.position])" }.joined(separator: "\u{1F}")
    }
}
