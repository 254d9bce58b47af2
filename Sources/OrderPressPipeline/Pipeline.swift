import Foundation
import OrderPressAggregate
import OrderPressCatalogue
import OrderPressConfig
import OrderPressDiff
import OrderPressFetch
import OrderPressNotify
import OrderPressPublish
import OrderPressRender
import OrderPressReuse
import OrderPressSupport
import OrderPressValidate

/// The whole build as named steps, each a function from values to values:
/// lock → configure → fetch → validate → diff → aggregate → render → publish → snapshot (last).
public struct Pipeline: Sendable {
    public var configuration: Configuration
    public var clock: Clock
    /// Told as each step starts, for a progress display.
    public var progress: (@Sendable (Step) -> Void)?
    /// Where the variables that `token_env` names are read.
    public var environment: [String: String]
    /// Told of a failing source and of a successful build, under the lock (see `Pipeline+Health`).
    public var health: SourceHealth?
    /// With a webhook: where the run's news is kept, flushed to disk before the snapshot is committed,
    /// until the webhook takes it (`NewsDelivery`).
    public var outbox: NewsOutbox?
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
    /// `since`: the last build's time as pages show a time, in the site's zone (`2026-11-21 18:00 (Asia/Taipei)`).
    public func diff(offline: Bool = false) async throws(StepFailure) -> (changes: ChangeSet, since: String?) {
        let fetched = try await fetch(.init(offline: offline, saveCache: false))
        let sheet = try validate(fetched)
        let store = StateStore(folder: configuration.output.state, writable: false)
        return try step(.diff) { () throws(DataError) in
            let previous = try store.loadPrevious()
            let key = try? SecretKey.load(state: configuration.output.state, create: false)
            let outcome = try DiffStep(deletionGuard: nil, now: Timestamp.iso8601(clock.now), rounds: roundCloser(store), key: key ?? nil)
                .run(sheet, rates: nil, previous: previous, history: [])
            // As the footer's "data as of" shows a time: the terminal has no footer naming the zone.
            let (zone, changedAt) = (configuration.timeZone, previous?.index.header.changedAt)
            return (outcome.changes, changedAt.map { Timestamp.display(iso: $0, timeZone: zone).map { "\($0) (\(zone.identifier))" } ?? $0 })
        }
    }

    /// The whole build, step after step; each step's value is the next one's input, and each step lets go
    /// of what no later step reads (at a million orders the sheets, the rows and the aggregation are each
    /// hundreds of MB, and the build's peak is close to the 1.5 GB limit).
    public func build(_ options: Options = .init()) async throws(StepFailure) -> BuildReport {
        var steps = StepTimer(progress: progress)
        steps.begin(.lock)
        let lock = try acquireLock(options)
        // Held until this function returns; the kernel drops it if the process dies first.
        defer { withExtendedLifetime(lock) {} }
        // The state folder is its owner's alone (0700, files 0600), before this run writes into it and after.
        if lock != nil { AtomicFile.makePrivate(configuration.output.state) }
        defer { if lock != nil { AtomicFile.makePrivate(configuration.output.state) } }
        steps.begin(.configure)
        let (renderer, fetcher, labels) = try configure(options)
        let store = StateStore(folder: configuration.output.state, writable: !options.dryRun)
        steps.begin(.fetch)
        let (fetched, inputs, headStart): (FetchedData, BuildInputs, HeadStart)
        switch try await notingFailure(options, labels: labels, { () async throws(StepFailure) in
            try await fetchUnlessUnchanged(fetcher, renderer: renderer, store: store, options)
        }) {
        case .unchanged(let last, let files, let requests):
            var report = BuildReport(unchanged: last, files: files, requests: requests, dryRun: options.dryRun, timings: steps.finish())
            report.problems = notingSuccess(options, labels: labels)
            return report
        case .fetched(let data, let digest, let started):
            (fetched, inputs, headStart) = (data, digest, started)
        }
        let (rates, requests) = (fetched.rates, fetched.requests)
        steps.begin(.validate)
        let validated = try validate(consume fetched, strict: options.strict, known: headStart.takeKnownRows)
        // The diff before aggregating, which does not depend on it: the new snapshot's records are staged
        // (see `StagedSnapshot`) while the orders are aggregated and the first pages render, and let go
        // once written; the snapshot step waits for them. Not the diff and the aggregation at once: at a
        // million orders the two together held far more than either (docs/benchmarks.md).
        steps.begin(.diff)
        headStart.stateRead()
        var diffed: DiffResult
        do {
            diffed = try diff(consume validated, rates: rates, store: store, labels: labels, options)
        } catch {
            noteRefusal(error, options, labels: labels)
            throw error
        }
        let staged = diffed.staged
        // A build that stops before the snapshot step leaves no staged records behind it.
        defer { staged?.discard() }
        let slugging = slugs(diffed, store: store)
        // The record digests are the slugs thread's alone from here on (some 16 MB at a million orders):
        // freed when it is done with them, not held through render.
        diffed.orderDigests = []
        // Not waiting for the staging here (but for a sheet so large that the records held while they stage
        // would pass the memory limit: `StagedSnapshot.waitWhenLarge`): waiting made a full build
        // slower, with one core idle (docs/benchmarks.md).
        steps.begin(.aggregate)
        headStart.reopen()
        let aggregation = aggregate(diffed.data, rates: rates)
        steps.begin(.render)
        let session = try headStart.takeSession()
        // A rerun of a large site renders beside the last build's manifest, where its peak is: the pages
        // render frees go back to the system at once from here on (`Allocator.freeAtOnceWhenLarge`). Not a
        // first build's: it gains nothing there (its peak is the diff's) and renders a tenth slower so.
        if session.recordedCount >= HeadStart.setAsideFrom { Allocator.freeAtOnceWhenLarge() }
        let (slugs, digestTable, tombstones, slugText) = slugging.take()
        let input = SiteInput(
            configuration: configuration, data: diffed.data, aggregation: consume aggregation, rates: rates,
            history: diffed.history, now: clock.now, siteID: diffed.siteID, archives: diffed.archives, ledger: diffed.ledger, labels: labels, slugs: slugs,
            tombstones: tombstones)
        let orders = diffed.handOverOrders(nextDeadline: nextDeadline)
        try render(consume input, digestTable: digestTable, with: renderer, into: session)
        // Publish ends the session: it removes what is left of the last build and records the manifest.
        steps.begin(.publish)
        // What render freed, and the aggregation freed aside, go back to the system at once: publishing
        // allocates on this thread, whose arena does not reuse render's pages.
        Allocator.freeAtOnceWhenLarge()
        // The snapshot's transaction is written on the other core while publishing ends, and committed
        // only after the files are in place (see `PendingSave`, `place(_:saving:inputs:)`): a failed publish rolls it
        // back, and a failed commit puts the old files back.
        let saving = staged.map { beginSnapshot($0, diffed, orders: orders, inputs: inputs, rates: rates, slugs: slugText, tombstoneEnd: tombstones.expiry, store: store) }
        defer { saving?.abandon() }
        try place(session, saving: saving, inputs: inputs)
        let published: PublishReport
        if let saving {
            steps.begin(.snapshot)
            // The news is in the outbox before the snapshot that makes it old news is committed: a run killed
            // after the commit still has it sent by the next run. A failed commit takes it out again.
            let queued = (try? outbox?.add(diffed.news.chosen(configuration.notify.print))) ?? []
            do {
                published = try commit(session, saving: saving)
            } catch {
                try? outbox?.remove(queued)
                throw error
            }
        } else {
            published = session.complete()
        }
        let timings = steps.finish()
        let problems = [commitMarkdown(published, changes: diffed.changes, options)].compactMap { $0 } + notingSuccess(options, labels: labels)
        let report = BuildReport(diffed, orders: orders.count, published: published, problems: problems, requests: requests, dryRun: options.dryRun, timings: timings)
        // The session's manifests (240,000 entries at a million orders) are freed aside too: the build is
        // done (the orders went with the aggregation, after render).
        Allocator.release(consume session)
        return report
    }

    /// What the fetch step found: the same inputs as the last build (nothing to do), or data to build from
    /// and what it started for the steps after it.
    private enum Fetch {
        case unchanged(LastBuild, files: Int, requests: Int)
        case fetched(FetchedData, BuildInputs, HeadStart)
    }

    /// Downloads the sources; when everything the site depends on is what the last successful build
    /// saw, and its files are all still in place, stops there. Else parses the sources.
    private func fetchUnlessUnchanged(
        _ fetcher: Fetcher, renderer: SiteRenderer, store: StateStore, _ options: Options
    ) async throws(StepFailure) -> Fetch {
        let headStart = HeadStart(output: configuration.output, dryRun: options.dryRun)
        let downloaded = try await step(.fetch) { () async throws(SourceError) in try await fetcher.download() }
        let inputs = BuildInputs(downloaded, configuration: configuration, templates: renderer.templates.digest)
        // The state is the diff's (`Diff/StateStore`): read early for this check, it fails as the diff's own
        // reading does, with the same words as `orderpress diff` and a dry run (`StateEdgeTests`).
        let last = try step(.diff) { () throws(DataError) in try store.lastBuild() }
        if let last, inputs.match(last, at: clock.now, strict: options.strict),
            case let session = try headStart.openedSession(), let files = inputs.intactFiles(in: session)
        {
            // A temporary file a killed write in the state folder left is no part of an unchanged site either.
            session.sweepLeftovers()
            return .unchanged(last, files: files, requests: downloaded.requests)
        }
        headStart.readState(store, folder: configuration.output.state, rows: last?.rowsRead ?? 0)
        let parsed = try step(.fetch) { () throws(SourceError) in try fetcher.parse(downloaded) }
        headStart.setAsideWhenLarge()
        return .fetched(parsed, inputs, headStart)
    }

    // MARK: - Steps

    /// A dry run writes nothing, so it takes no lock.
    private func acquireLock(_ options: Options) throws(StepFailure) -> BuildLock? {
        guard !options.dryRun else { return nil }
        return try step(.lock) { () throws(BuildLockError) in try BuildLock.acquire(in: configuration.output.state) }
    }

    /// The templates, the fetcher (a `token_env` naming an unset variable is configuration too), and the
    /// site's words, made here once for every step that writes words.
    private func configure(_ options: Options) throws(StepFailure) -> (SiteRenderer, Fetcher, Labels) {
        let renderer = try step(.configure) { () throws(ConfigurationError) in try SiteRenderer(templateOverrides: configuration.templates) }
        return (renderer, try makeFetcher(.init(offline: options.offline, saveCache: !options.dryRun)), Labels(site: configuration))
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

    /// With `strict`, a rejected row stops the build. The sheets' cells are let go once validated when the
    /// caller hands over its only copy, as the build does: no later step reads them, and at a million rows
    /// they are hundreds of MB.
    /// `known`: what the last snapshot knew of its rows (`KnownRows`), for a build that will compare with it.
    package func validate(
        _ fetched: consuming FetchedData, strict: Bool = false, known: () -> KnownRows? = { nil }
    ) throws(StepFailure) -> ValidatedSheet {
        let validator = Validator(configuration: configuration)
        var sheet: ValidatedSheet
        do {
            sheet = try validator.validateSheet(orders: fetched.takeOrders(), groups: fetched.groups, known: known)
            if let payments = fetched.payments {
                let read = try PaymentRows(configuration: configuration).read(payments, groups: sheet.data.groups)
                sheet.data.payments = read.payments
                sheet.data.warnings += read.warnings
            }
        } catch {
            throw StepFailure(step: .validate, underlying: error)
        }
        sheet.data.warnings = (fetched.warnings + sheet.data.warnings).sorted()
        // The sheets' cells go here (when the caller passed its only copy), and their pages go back to the system.
        _ = consume fetched
        Allocator.releaseFreed()
        if strict, !sheet.data.rejected.isEmpty {
            throw StepFailure(
                step: .validate,
                underlying: DataError(
                    message: "\(sheet.data.rejected.count) of \(sheet.data.rowsRead) rows were rejected and --strict publishes nothing; run 'orderpress check' to list them"))
        }
        return sheet
    }

    /// Reads the state, then compares, guards and records the run; also reads (or makes) the site's id.
    /// Unless this is a dry run, the new snapshot's records are then staged while the orders are aggregated
    /// (see `StagedSnapshot`). Consumes the rows and the secret cells: only the diff reads them, and neither
    /// is held while the site is rendered.
    private func diff(
        _ sheet: consuming ValidatedSheet, rates: RateTable?, store: StateStore, labels: Labels, _ options: Options
    ) throws(StepFailure) -> DiffResult {
        let now = Timestamp.iso8601(clock.now)
        // Best effort: the refusal is what the run reports either way.
        var refused: (@Sendable (Set<String>) -> Void)? = nil
        if !options.dryRun { refused = { @Sendable groups in _ = try? store.noteMissing(groups, at: now) } }
        let key = try step(.diff) { () throws(OutputError) in try SecretKey.load(state: configuration.output.state, create: !options.dryRun) }
        let outcome = try step(.diff) { () throws(DataError) in
            let diff = DiffStep(
                deletionGuard: options.acceptDeletions ? nil : DeletionGuard(maxDeletedFraction: configuration.maxDeletedFraction),
                now: now, rounds: roundCloser(store), refused: refused, key: key)
            return try diff.run(taking: &sheet, rates: rates, previous: store.loadPrevious(), history: store.loadHistory())
        }
        // Each order's record digest, for the pages' keys (`OrderDigestTable`), found by its record's row.
        let orderDigests = OrderDigestTable.recordDigests(sheet.data, records: outcome.records, digests: outcome.digests)
        var data = sheet.data
        // Finished rounds' archives, the kept ones and those this run closed, are published with every build.
        let archives = RoundCloser.merged(store.keptArchives(), outcome.closedRounds)
        let ledger = PaymentLedger(archives: archives, payments: data.payments, configuration: configuration, now: clock.now)
        // Paid beyond the carried debts: said on the Attention page, whether or not the person has a page.
        let credit = ledger.creditWarnings(data.payments, money: MoneyFormat(minorUnitOverrides: configuration.minorUnits))
        if !credit.isEmpty { data.warnings = (data.warnings + credit).sorted() }
        // The rows and the secret cells: read by no later step.
        _ = consume sheet
        // Read while the new records are still here; the last snapshot's index is what the diff just read.
        // The rejected records made afresh alone: a kept one is rejected only if its match was, under the same identity.
        // Amounts as the pages write them, grouped by the site's thousands separator ("1,200.00 TWD").
        let separator = labels.text("thousands_separator")
        let news = News.make(
            changes: outcome.changes, rows: outcome.records.freshRejected, previous: try? store.contents().snapshot, rejected: data.rejected,
            money: MoneyFormat(minorUnitOverrides: configuration.minorUnits, thousandsSeparator: separator), text: NewsText(labels: labels, baseURL: configuration.baseURL),
            quantityColumn: configuration.orderColumns.quantity)
        // Kept before anything is published, not with the snapshot: a feed that went out with an id
        // must keep it even when the build dies between publishing and saving the snapshot.
        let siteID = try step(.diff) { () throws(OutputError) in try store.siteID(create: !options.dryRun) }
        let staged =
            options.dryRun ? nil : try step(.diff) { () throws(OutputError) in
                try store.stage(header: outcome.header, records: outcome.records, digests: outcome.digests, reuse: outcome.reuse)
            }
        // The last snapshot's index: read by no later step (the staging holds what it needs of it).
        if staged != nil { store.letGoOfPreviousRecords() }
        // The deletions tombstones list, by the run's clock; a state saved before they were kept has its history's.
        let kept = store.keptDeletions()
        var deletions = kept ?? RecentDeletions(replaying: outcome.history)
        if kept != nil, !outcome.changes.isEmpty { deletions.record(outcome.changes, at: now) }
        deletions.expire(now: clock.now)
        var result = DiffResult(
            data: data, changes: outcome.changes, history: outcome.history, siteID: siteID, orderDigests: orderDigests,
            staged: staged, news: news)
        result.deletions = deletions
        result.deletionsText = deletions == kept ? nil : deletions.text
        result.archives = archives
        result.ledger = ledger
        // The new records are held by the staging alone from here on (none at all on a dry run).
        _ = consume outcome
        staged?.waitWhenLarge()
        Allocator.releaseFreed()
        return result
    }

    /// Hands out the pages' file names on a thread of their own while the orders are aggregated, from the
    /// validated data alone, each order's digest taken from its record's. The last build's slugs stay with
    /// their pages (`PageSlugs`); the new ones are written out for the state there too. Each order's digest
    /// for the pages' keys (`OrderDigestTable`) is made here too, on this thread alone: the aggregation has
    /// both cores' workers. So are the pages kept after their orders were deleted (`Tombstones`), once
    /// for the slugs, the pages and the build's record.
    private func slugs(_ diffed: DiffResult, store: StateStore) -> Background<(SiteSlugs, OrderDigestTable, Tombstones, String)> {
        Background { [
            data = diffed.data, archives = diffed.archives, records = diffed.orderDigests, store, deletions = diffed.deletions, now = clock.now,
            debtors = diffed.ledger.debtors
        ] in
            // People and groups whose orders were all deleted keep their pages (and slugs) for 30 days, and
            // people who still owe from a finished round while they do.
            let tombstones = Tombstones(deletions: deletions, now: now, data: data, keeping: debtors)
            let slugs = SiteSlugs(data, archives: archives, kept: store.keptSlugs(), tombstones: tombstones)
            let digestTable = OrderDigestTable(data.orders, generation: data.$orders, records: records, places: GroupPlaces(data.groups), parallel: false)
            return (slugs, digestTable, tombstones, slugs.storedText)
        }
    }

    /// With `[rounds] close_after_deadline`: what takes finished rounds out of the deletions, knowing when the
    /// last snapshot was made and what refused runs found missing.
    private func roundCloser(_ store: StateStore) -> RoundCloser? {
        guard configuration.rounds.closeAfterDeadline else { return nil }
        var closer = RoundCloser(configuration: configuration, now: clock.now)
        closer.watch = store.keptRoundWatch()
        return closer
    }

    /// The first deadline still ahead of a group with orders: a round can close only if a snapshot made
    /// after it held its orders, so the first run past it builds (and saves a snapshot) even on unchanged input.
    private func nextDeadline(_ data: ValidatedData) -> Date? {
        guard configuration.rounds.closeAfterDeadline else { return nil }
        let ordering = Set(data.orders.map(\.group))
        return data.groups.lazy.filter { ordering.contains($0.name) }
            .compactMap { $0.deadlineTime(timeZone: configuration.timeZone) }.filter { $0 >= clock.now }.min()
    }

    private func aggregate(_ data: ValidatedData, rates: RateTable?) -> Aggregation {
        Aggregator.aggregate(
            data, rates: rates, displayCurrencies: configuration.displayCurrencies, baseCurrency: configuration.baseCurrency,
            money: MoneyFormat(minorUnitOverrides: configuration.minorUnits), organizerSettled: configuration.rounds.organizerSettled)
    }

    /// Render hands each batch of pages to the session as soon as it is made: the site is never all in
    /// memory. What the site was made from is not read again: freed aside while publishing ends.
    /// Render makes bytes and throws nothing of its own; what it can throw is the publish session's failure
    /// to write them, which is the publish step's (`FailedRunTests`).
    private func render(
        _ input: consuming SiteInput, digestTable: consuming OrderDigestTable, with renderer: SiteRenderer, into session: PublishSession
    ) throws(StepFailure) {
        do {
            try renderer.render(input, digestTable: digestTable, into: session, reusing: session)
        } catch {
            // Nothing was put in place yet: what render wrote goes (see `PublishSession`).
            session.abandon()
            throw StepFailure(step: .publish, underlying: error)
        }
        Allocator.release((consume input, consume digestTable))
    }

    /// Begins saving the snapshot with the build's record; committed last, so that a failure anywhere
    /// before leaves the next run comparing against the same state. `orders`: what was read of the orders
    /// before render let them go.
    private func beginSnapshot(
        _ staged: StagedSnapshot, _ diffed: DiffResult, orders: (count: Int, nextDeadline: Date?), inputs: BuildInputs, rates: RateTable?, slugs: String, tombstoneEnd: Date?,
        store: StateStore
    ) -> PendingSave {
        let data = diffed.data
        let validity = BuildInputs.validity(rates: rates, configuration: configuration, now: clock.now)
        // A page kept after its orders were deleted goes when its 30 days end (`tombstoneEnd`), and a debt carried
        // without a payments source after `keep_unpaid_days`, input unchanged or not.
        var last = LastBuild(
            fingerprint: inputs.fingerprint,
            validUntil: [
                validity.until, tombstoneEnd, orders.nextDeadline,
                PaymentLedger.nextExpiry(archives: diffed.archives, configuration: configuration, now: clock.now),
            ].compactMap { $0 }.min(), validFrom: validity.from,
            rowsRead: data.rowsRead, orders: orders.count, rejected: data.rejected.count, warnings: data.warnings)
        last.blankRows = data.blankRows == 0 ? nil : data.blankRows
        last.amountsWithSign = data.amountsWithSign == 0 ? nil : data.amountsWithSign
        return store.beginSave(
            staged, history: diffed.history, lastBuild: last, pageSlugs: slugs, archives: RoundArchive.text(of: diffed.archives),
            roundWatch: RoundWatch(seenAt: Timestamp.iso8601(clock.now)).text, deletions: diffed.deletionsText)
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

    package func step<T, E: OrderPressFailure>(_ step: Step, _ body: () throws(E) -> T) throws(StepFailure) -> T {
        do {
            return try body()
        } catch {
            throw StepFailure(step: step, underlying: error)
        }
    }
}
