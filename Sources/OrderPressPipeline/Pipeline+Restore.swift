import OrderPressConfig
import OrderPressDiff
import OrderPressFetch
import OrderPressNotify
import OrderPressSupport

extension Pipeline {
    /// What `orderpress restore` searches: the last snapshot's orders that the sheet no longer holds,
    /// then the history's deletions. Writes nothing. When the sheet cannot be read, the history alone
    /// is searched and `problem` says why.
    public func deletedOrders(offline: Bool = false) async throws(StepFailure) -> DeletedOrders {
        let store = StateStore(folder: configuration.output.state, writable: false)
        let history = try step(.diff) { () throws(DataError) in try store.loadHistory() }
        let recorded = history.flatMap { $0.changes.deleted.filter { !$0.rejected } }
        let fetched: FetchedData
        do {
            fetched = try await fetch(.init(offline: offline, saveCache: false))
        } catch {
            let columns = try step(.diff) { () throws(DataError) in try store.contents().snapshot?.header.columns ?? [] }
            var found = DeletedOrders(headers: columns, columns: columns, records: recorded, problem: error.description)
            found.timeColumn = configuration.orderColumns.time
            return found
        }
        let headers = Self.sheetOrder(
            fetched.orders.headers, location: configuration.orders.location, columns: configuration.orderColumns, written: fetched.orders.sheetOrder)
        let sheet = try validate(fetched)
        return try step(.diff) { () throws(DataError) in
            let previous = try store.loadPrevious()
            let key = try? SecretKey.load(state: configuration.output.state, create: false)
            let outcome = try DiffStep(deletionGuard: nil, now: Timestamp.iso8601(clock.now), key: key ?? nil)
                .run(sheet, rates: nil, previous: previous, history: [])
            let pending = outcome.changes.deleted.filter { !$0.rejected }
            let columns = previous?.index.header.columns ?? sheet.columns
            // A sheet whose last order was deleted may have no header left to read (SheetDB answers `[]`):
            // the snapshot's columns, its secret ones too (left empty), say what the row held.
            let secret = previous?.index.header.secretColumns ?? sheet.secrets.columns
            let order = headers.isEmpty
                ? Self.sheetOrder(columns + secret, location: configuration.orders.location, columns: configuration.orderColumns) : headers
            var found = DeletedOrders(headers: order, columns: columns, records: pending + recorded)
            found.timeColumn = configuration.orderColumns.time
            return found
        }
    }

    /// The sheet's columns in its order. A CSV file's header row gives it; a JSON body (SheetDB's) has its
    /// keys sorted by the parser, but its first row object lists them in the sheet's order (`written`,
    /// `SourceTable.sheetOrder`): a Google Form's tab follows its questions. Without that, they follow the
    /// layout the README suggests for the sheet (id, time, group, orderer, drink, options, quantity, price,
    /// currency, note, paid, secrets), then the rest.
    static func sheetOrder(
        _ headers: [String], location: Configuration.Location, columns: Configuration.OrderColumns, written: [String]? = nil
    ) -> [String] {
        if case .path(let url) = location, url.pathExtension.lowercased() == "csv" { return headers }
        if let written {
            let present = Set(headers)
            let known = written.filter(present.contains)
            let listed = Set(known)
            return known + headers.filter { !listed.contains($0) }
        }
        let layout = [columns.id, columns.time, columns.group, columns.person, columns.item] + columns.options
            + [columns.quantity, columns.price, columns.currency, columns.note, columns.paid] + columns.secret
        let present = Set(headers)
        var seen = Set<String>()
        let known = layout.filter { present.contains($0) && seen.insert($0).inserted }
        return known + headers.filter { !seen.contains($0) }
    }
}
