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
            return DeletedOrders(headers: columns, columns: columns, records: recorded, problem: error.description)
        }
        let headers = fetched.orders.headers
        let (data, secrets) = try validate(fetched)
        return try step(.diff) { () throws(DataError) in
            let previous = try store.loadPrevious()
            let outcome = try DiffStep(deletionGuard: nil, now: Timestamp.iso8601(clock.now))
                .run(data, secrets: secrets, rates: nil, previous: previous, history: [])
            let pending = outcome.changes.deleted.filter { !$0.rejected }
            return DeletedOrders(headers: headers, columns: previous?.index.header.columns ?? data.columns, records: pending + recorded)
        }
    }
}
