/// The rows of a table on a page, made one at a time while the page is written, so that nothing is
/// made for every order of a group before its page is: a row may read its order where it is stored
/// (`OrderList.withOrder`), so it is valid only inside `forEach`'s body. The compiled templates
/// (`GeneratedPages`) loop over them with `forEach`; for a template of the user's, swift-mustache sees
/// them as an array (`TemplateContext`), each row made into its values while it is valid.
package struct PageRows<Row> {
    package let count: Int
    /// Calls its second argument with the row at the first (from 0 to `count`).
    private let row: (Int, (Row) -> Void) -> Void

    package init(count: Int, row: @escaping (Int, (Row) -> Void) -> Void) {
        self.count = count
        self.row = row
    }

    package var isEmpty: Bool { count == 0 }

    func forEach(_ body: (Row) -> Void) {
        for index in 0..<count { row(index, body) }
    }
}

/// Rows a template of the user's sees as an array (`TemplateContext`).
protocol TemplateRows {
    /// Each row made into what swift-mustache looks values up in, while it is valid.
    var templateValues: [Any] { get }
}

extension PageRows: TemplateRows {
    package var templateValues: [Any] {
        var values: [Any] = []
        values.reserveCapacity(count)
        forEach { values.append(TemplateContext.make($0)) }
        return values
    }
}
