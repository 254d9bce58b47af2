import Foundation

/// The whole build as named steps, each a function from values to values:
/// lock → configure → fetch → validate → diff → aggregate → render → publish → snapshot (last).
public struct Pipeline: Sendable {
    public var configuration: Configuration
    public var clock: Clock
    /// Told as each step starts, for a progress display.
    public var progress: (@Sendable (Step) -> Void)?
    /// Where the variables that `token_env` names are read.
    public var environment: [String: String]
    var transport: any HTTPTransport = URLSessionTransport()
    var retryPolicy = RetryPolicy()

    public struct Options: Sendable {
        /// Refuse to publish when any row is rejected.
        public var strict = false
        /// Plan the publish step, but write nothing.
        public var dryRun = false
        /// Publish even when more of the last run's orders vanished than the guard allows.
        public var acceptDeletions = false
        /// Read URL sources only from their cached copies.
        public var offline = false

        public init(strict: Bool = false, dryRun: Bool = false, acceptDeletions: Bool = false, offline: Bool = false) {
            self.strict = strict
            self.dryRun = dryRun
            self.acceptDeletions = acceptDeletions
            self.offline = offline
        }
    }

    public init(
        configuration: Configuration, clock: Clock,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        progress: (@Sendable (Step) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.clock = clock
        self.environment = environment
        self.progress = progress
    }

    /// Fetches and validates only, as `orderpress check` does.
    public func check(offline: Bool = false) async throws(StepFailure) -> ValidatedData {
        try validate(try await fetch(.init(offline: offline, saveCache: false))).data
    }

    /// Fetches, validates and compares with the last snapshot, as `orderpress diff` does; writes nothing.
    public func diff(offline: Bool = false) async throws(StepFailure) -> (changes: ChangeSet, since: String?) {
        let fetched = try await fetch(.init(offline: offline, saveCache: false))
        let (data, secrets) = try validate(fetched)
        let store = StateStore(folder: configuration.output.state, writable: false)
        return try step(.diff) { () throws(DataError) in
            let previous = try store.loadPrevious()
            let outcome = try DiffStep(deletionGuard: nil, now: Timestamp.iso8601(clock.now))
                .run(data, secrets: secrets, rates: nil, previous: previous, history: [])
            return (outcome.changes, previous?.index.header.changedAt)
        }
    }

    public func build(_ options: Options = .init()) async throws(StepFailure) -> BuildReport {
        var timings: [(Step, Double)] = []
        func timed<T>(_ step: Step, _ body: () async throws(StepFailure) -> T) async throws(StepFailure) -> T {
            progress?(step)
            let start = ContinuousClock.now
            let result = try await body()
            let elapsed = ContinuousClock.now - start
            timings.append((step, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            return result
        }

        // Held until this function returns; the kernel drops it if the process dies first.
        let lock = try await timed(.lock) { () throws(StepFailure) in try acquireLock(options) }
        defer { withExtendedLifetime(lock) {} }
        let renderer = try await timed(.configure) { () throws(StepFailure) in try configure() }
        let store = StateStore(folder: configuration.output.state, writable: !options.dryRun)
        // Optional so that it can be let go as soon as it is validated: no later step reads the sheets'
        // cells, and at a million rows they are hundreds of MB. Switched on directly, so that no
        // other binding keeps them alive.
        var fetched: FetchedData?
        let inputs: BuildInputs
        let reading: Background<Bool>
        let opening: Background<Result<PublishSession, StepFailure>>
        switch try await timed(.fetch, { () async throws(StepFailure) in
            try await fetchUnlessUnchanged(renderer: renderer, store: store, options)
        }) {
        case .unchanged(let last, let files, let requests):
            return BuildReport(unchanged: last, files: files, requests: requests, dryRun: options.dryRun, timings: timings)
        case .fetched(let data, let digest, let stateRead, let opened):
            (fetched, inputs, reading, opening) = (data, digest, stateRead, opened)
        }
        // Not left reading the state after a failed step either.
        defer { _ = reading.value }
        let (rates, requests) = (fetched?.rates, fetched?.requests ?? 0)
        var (data, secrets) = try await timed(.validate) { () throws(StepFailure) in
            defer { Heap.releaseFreed() }
            return try validate(fetched.take()!, strict: options.strict)
        }
        _ = reading.value
        // The diff before aggregating, which does not depend on it: the new snapshot's records are staged
        // (see `StagedSnapshot`) while the orders are aggregated and the first pages render, and let go
        // once written; the snapshot step waits for them. Not the diff and the aggregation at once: at a
        // million orders the two together held 300 MB more than either.
        let diffed = try await timed(.diff) { () throws(StepFailure) in
            try diff(data, secrets: secrets, rates: rates, store: store, options)
        }
        // A build that stops before the snapshot step leaves no staged records behind it.
        defer { diffed.staged?.discard() }
        // Only the diff reads every row and the secret cells: neither is held while the site is rendered.
        (data.rows, secrets) = ([], SecretCells(columns: [], rows: []))
        Heap.releaseFreed()
        // The pages' file names are handed out meanwhile, from the validated data alone, and each order's
        // digest taken from its record's.
        // The last build's slugs stay with their pages (`PageSlugs`); the new ones are written out for the state there too.
        let slugging = Background { [data, records = diffed.orderDigests, store, history = diffed.outcome.history, now = clock.now] in
            let tombstones = Tombstones(history: history, now: now, data: data)
            let slugs = SiteSlugs(data, records: records, kept: store.keptSlugs(), tombstones: tombstones)
            return (slugs, slugs.storedText)
        }
        // Not waiting for the staging here: a full build's 100,000 records took 0.1–0.2 s more than the
        // aggregation, with one core idle. At a million orders the full build's peak rose from 1,338 MiB to
        // at most 1,406 (the limit is 1,536).
        let aggregation = try await timed(.aggregate) { () in aggregate(data, rates: rates) }
        // Render hands each batch of pages to the session as soon as it is made: the site is never
        // all in memory. Publish then removes what is left of the last build and records the manifest.
        // Swept only now: the diff writes in the state folder, where the sweep removes temporary files.
        let session = try opening.take().get()
        session.sweepLeftovers()
        let (slugs, slugText) = slugging.take()
        do {
            try await timed(.render) { () throws(StepFailure) in
                try step(.publish) { () throws(OutputError) in
                    try renderer.render(
                        configuration: configuration, data: data, aggregation: aggregation, rates: rates,
                        history: diffed.outcome.history, now: clock.now, siteID: diffed.siteID, slugs: slugs, into: session)
                }
            }
        } catch {
            // Nothing was put in place yet: what render wrote goes (see `PublishSession`).
            session.abandon()
            throw error
        }
        // Not read again: freed aside while publishing ends.
        Heap.release(consume aggregation)
        // The snapshot's transaction is written on the other core while publishing ends, and committed
        // only after the files are in place (see `PendingSave`, `place(_:saving:inputs:)`): a failed publish rolls it
        // back, and a failed commit puts the old files back.
        let saving = options.dryRun ? nil : beginSnapshot(diffed.staged!, history: diffed.outcome.history, data: data, inputs: inputs, rates: rates, slugs: slugText, store: store)
        defer { saving?.abandon() }
        try await timed(.publish) { () throws(StepFailure) in try place(session, saving: saving, inputs: inputs) }
        let published =
            if let saving { try await timed(.snapshot) { () throws(StepFailure) in try commit(session, saving: saving) } } else { session.complete() }
        let problems = [commitMarkdown(published, changes: diffed.outcome.changes, options)].compactMap { $0 }
        var report = BuildReport(
            rowsRead: data.rowsRead, orders: data.orders.count, rejected: data.rejected.count,
            changes: diffed.outcome.changes, warnings: data.warnings, problems: problems,
            written: published.written, unchanged: published.unchanged, removed: published.removed,
            requests: requests, dryRun: options.dryRun, timings: timings)
        report.blankRows = data.blankRows
        report.news = diffed.news
        // The orders and the session's manifests (240,000 entries at a million orders) are freed aside
        // too: the build is done.
        var orders: [Order] = []
        swap(&orders, &data.orders)
        Heap.release(consume orders)
        Heap.release(consume session)
        return report
    }

    /// What the fetch step found: the same inputs as the last build (nothing to do), or data to build from.
    private enum Fetch {
        case unchanged(LastBuild, files: Int, requests: Int)
        /// `reading` reads the state and `opening` opens the publish session (see `fetchUnlessUnchanged`);
        /// `reading` is true when it could.
        case fetched(FetchedData, BuildInputs, reading: Background<Bool>, opening: Background<Result<PublishSession, StepFailure>>)
    }

    /// Downloads the sources; when everything the site depends on is what the last successful build
    /// saw, and its files are all still in place, stops there. Else parses the sources.
    private func fetchUnlessUnchanged(renderer: SiteRenderer, store: StateStore, _ options: Options) async throws(StepFailure) -> Fetch {
        let fetcher = try makeFetcher(.init(offline: options.offline, saveCache: !options.dryRun))
        // The last manifest is read and its files located on the other core while the sources download
        // and are fingerprinted on this one: an unchanged rerun needs them to see its files intact, any
        // other build to publish (at 100,000 orders 24,000 entries, about 50 ms). Opening writes nothing.
        let output = configuration.output
        let opening = Background { Result { () throws(StepFailure) in try Publisher(output: output).open(dryRun: options.dryRun) } }
        let downloaded: DownloadedSources
        do {
            downloaded = try await step(.fetch) { () async throws(SourceError) in try await fetcher.download() }
        } catch {
            _ = opening.value
            throw error
        }
        let inputs = BuildInputs(downloaded, configuration: configuration, templates: renderer.templates.identity)
        let last = try step(.diff) { () throws(DataError) in try store.lastBuild() }
        if let last, last.fingerprint == inputs.fingerprint, BuildInputs.holds(last, at: clock.now),
            !(options.strict && last.rejected > 0),
            case let session = try opening.value.get(), let files = session.intactCount(builtFrom: inputs.fingerprint)
        {
            // A temporary file a killed write in the state folder left is no part of an unchanged site either.
            session.sweepLeftovers()
            return .unchanged(last, files: files, requests: downloaded.requests)
        }
        // The last snapshot's index and the history are read on a thread of their own while the sheet is
        // parsed on one core and the rows validated: the diff needs them, and at a million orders reading
        // them is half a second. A failure is left for the diff, which reads again and says what went wrong.
        let reading = Background { [store] in (try? store.contents()) != nil }
        do {
            let parsed = try step(.fetch) { () throws(SourceError) in try fetcher.parse(downloaded) }
            return .fetched(parsed, inputs, reading: reading, opening: opening)
        } catch {
            _ = reading.value
            _ = opening.value
            throw error
        }
    }

    // MARK: - Steps

    /// A dry run writes nothing, so it takes no lock.
    private func acquireLock(_ options: Options) throws(StepFailure) -> BuildLock? {
        guard !options.dryRun else { return nil }
        return try step(.lock) { () throws(BuildLockError) in try BuildLock.acquire(in: configuration.output.state) }
    }

    private func configure() throws(StepFailure) -> SiteRenderer {
        try step(.configure) { () throws(ConfigurationError) in try SiteRenderer(templateOverrides: configuration.templates) }
    }

    /// Reads every source.
    func fetch(_ options: Fetcher.Options) async throws(StepFailure) -> FetchedData {
        let fetcher = try makeFetcher(options)
        return try await step(.fetch) { () async throws(SourceError) in try await fetcher.fetch() }
    }

    /// A `token_env` naming an unset variable fails as configuration (exit 64).
    private func makeFetcher(_ options: Fetcher.Options) throws(StepFailure) -> Fetcher {
        try step(.configure) { () throws(ConfigurationError) in
            try Fetcher(
                configuration: configuration, clock: clock, environment: environment, options: options,
                transport: transport, retryPolicy: retryPolicy)
        }
    }

    /// With `strict`, a rejected row stops the build.
    func validate(_ fetched: FetchedData, strict: Bool = false) throws(StepFailure) -> (data: ValidatedData, secrets: SecretCells) {
        let validator = Validator(configuration: configuration)
        var (data, secrets) = try step(.validate) { () throws(DataError) in
            try validator.validateKeepingSecrets(orders: fetched.orders, groups: fetched.groups)
        }
        data.warnings = (fetched.warnings + data.warnings).sorted()
        if strict, !data.rejected.isEmpty {
            throw StepFailure(
                step: .validate,
                underlying: DataError(
                    message: "\(data.rejected.count) of \(data.rowsRead) rows were rejected and --strict publishes nothing; run 'orderpress check' to list them"))
        }
        return (data, secrets)
    }

    private func aggregate(_ data: ValidatedData, rates: RateTable?) -> Aggregation {
        Aggregator.aggregate(
            data, rates: rates, displayCurrencies: configuration.displayCurrencies, baseCurrency: configuration.baseCurrency,
            money: MoneyFormat(minorUnitOverrides: configuration.minorUnits))
    }

    /// Reads the state, then compares, guards and records the run; also reads (or makes) the site's id.
    /// Unless this is a dry run, the new snapshot's records are then staged while the orders are aggregated (see
    /// `StagedSnapshot`), and the outcome keeps none of them; the orders' digests are handed back apart.
    private func diff(
        _ data: ValidatedData, secrets: SecretCells, rates: RateTable?, store: StateStore, _ options: Options
    ) throws(StepFailure) -> (outcome: DiffOutcome, siteID: UUID, staged: StagedSnapshot?, orderDigests: [RecordDigest], news: News) {
        var outcome = try step(.diff) { () throws(DataError) in
            let diff = DiffStep(
                deletionGuard: options.acceptDeletions ? nil : DeletionGuard(maxDeletedFraction: configuration.maxDeletedFraction),
                now: Timestamp.iso8601(clock.now))
            return try diff.run(data, secrets: secrets, rates: rates, previous: store.loadPrevious(), history: store.loadHistory())
        }
        // Read while the new records are still here; the last snapshot's index is what the diff just read.
        let news = News.make(changes: outcome.changes, rows: outcome.snapshot.rows, previous: try? store.contents().snapshot, rejected: data.rejected)
        // Kept before anything is published, not with the snapshot: a feed that went out with an id
        // must keep it even when the build dies between publishing and saving the snapshot.
        let siteID = try step(.diff) { () throws(OutputError) in try store.siteID(create: !options.dryRun) }
        let snapshot = outcome.snapshot
        let (digests, orderDigests) = (outcome.digests, outcome.orderDigests)
        (outcome.snapshot.rows, outcome.digests, outcome.orderDigests) = ([], [], [])
        guard !options.dryRun else { return (outcome, siteID, nil, orderDigests, news) }
        let staged = try step(.diff) { () throws(OutputError) in try store.stage(snapshot, digests: digests) }
        return (outcome, siteID, staged, orderDigests, news)
    }

    /// Begins saving the snapshot with the build's record; committed last, so that a failure anywhere
    /// before leaves the next run comparing against the same state.
    private func beginSnapshot(
        _ staged: StagedSnapshot, history: [HistoryEntry], data: ValidatedData, inputs: BuildInputs, rates: RateTable?, slugs: String,
        store: StateStore
    ) -> PendingSave {
        let validity = BuildInputs.validity(rates: rates, configuration: configuration, now: clock.now)
        // A page kept after its orders were deleted goes when its 30 days end, input unchanged or not.
        let tombstoneEnd = Tombstones(history: history, now: clock.now, data: data).expiry
        var last = LastBuild(
            fingerprint: inputs.fingerprint,
            validUntil: [validity.until, tombstoneEnd].compactMap { $0 }.min(), validFrom: validity.from,
            rowsRead: data.rowsRead, orders: data.orders.count, rejected: data.rejected.count, warnings: data.warnings)
        last.blankRows = data.blankRows == 0 ? nil : data.blankRows
        return store.beginSave(staged, history: history, lastBuild: last, pageSlugs: slugs)
    }

    /// After the snapshot: a failed commit is a warning, never a failed build.
    private func commitMarkdown(_ published: PublishReport, changes: ChangeSet, _ options: Options) -> String? {
        guard !options.dryRun, configuration.gitCommit else { return nil }
        let summary = changes.isEmpty ? "pages updated" : changes.summary
        return GitCommitter(folder: configuration.output.markdown).commit(after: published, message: "\(configuration.title): \(summary)")
    }

    private func step<T, E: OrderPressFailure>(_ step: Step, _ body: () async throws(E) -> T) async throws(StepFailure) -> T {
        do {
            return try await body()
        } catch {
            throw StepFailure(step: step, underlying: error)
        }
    }

    func step<T, E: OrderPressFailure>(_ step: Step, _ body: () throws(E) -> T) throws(StepFailure) -> T {
        do {
            return try body()
        } catch {
            throw StepFailure(step: step, underlying: error)
        }
    }
}
