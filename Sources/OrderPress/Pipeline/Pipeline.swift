import Foundation

/// The whole build as named steps, each a function from values to values:
/// fetch → validate → aggregate → diff → render → publish → snapshot (last).
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
        let store = StateStore(folder: configuration.output.state)
        let previous = try step(.diff) { () throws(DataError) in try store.loadSnapshot() }
        let result = differ(previous).compare(data, secrets: secrets, previous: previous)
        return (result.changes, previous?.changedAt)
    }

    private func differ(_ previous: Snapshot?) -> Differ {
        Differ(hasher: SecretHasher(salt: previous?.salt ?? SecretHasher.newSalt()), now: Timestamp.iso8601(clock.now))
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
        let lock: BuildLock? = try await timed(.lock) { () throws(StepFailure) in
            guard !options.dryRun else { return nil }
            return try step(.lock) { () throws(BuildLockError) in try BuildLock.acquire(in: configuration.output.state) }
        }
        defer { withExtendedLifetime(lock) {} }
        let renderer = try await timed(.configure) { () throws(StepFailure) in
            try step(.configure) { () throws(ConfigurationError) in try SiteRenderer(templateOverrides: configuration.templates) }
        }
        let fetched = try await timed(.fetch) { () async throws(StepFailure) in
            try await fetch(.init(offline: options.offline, saveCache: !options.dryRun))
        }
        let (data, secrets) = try await timed(.validate) { () throws(StepFailure) in try validate(fetched) }
        if options.strict, !data.rejected.isEmpty {
            throw StepFailure(
                step: .validate,
                underlying: DataError(
                    message: "\(data.rejected.count) of \(data.rowsRead) rows were rejected and --strict publishes nothing; run 'orderpress check' to list them"))
        }
        let aggregation = try await timed(.aggregate) { Aggregator.aggregate(data) }
        let store = StateStore(folder: configuration.output.state)
        let (snapshot, changes, history) = try await timed(.diff) { () throws(StepFailure) in
            try step(.diff) { () throws(DataError) in
                let previous = try store.loadSnapshot()
                var history = try store.loadHistory()
                var (snapshot, changes) = differ(previous).compare(data, secrets: secrets, previous: previous)
                if !options.acceptDeletions {
                    try DeletionGuard(maxDeletedFraction: configuration.maxDeletedFraction)
                        .check(changes, previous: previous, malformedRows: data.malformedRows)
                }
                // A build killed between saving the history and the snapshot left this very entry
                // behind already; the rerun finds the same changes again and must not record them twice.
                if !changes.isEmpty, history.first?.changes != changes {
                    history.insert(HistoryEntry(time: snapshot.changedAt, changes: changes), at: 0)
                }
                snapshot.rates = fetched.rates.map(Snapshot.Rates.init)
                return (snapshot, changes, history)
            }
        }
        let siteID = try step(.diff) { () throws(OutputError) in try store.siteID(create: !options.dryRun) }
        let site = try await timed(.render) {
            renderer.render(
                configuration: configuration, data: data, aggregation: aggregation, rates: fetched.rates,
                history: history, now: clock.now, siteID: siteID)
        }
        let publisher = Publisher(output: configuration.output)
        let plan = try await timed(.publish) { () throws(StepFailure) in
            let plan = try publisher.plan(site)
            if !options.dryRun {
                try step(.publish) { () throws(OutputError) in try publisher.apply(plan) }
            }
            return plan
        }
        var problems: [String] = []
        if !options.dryRun {
            // Last, so that a failure anywhere before leaves the next run comparing against the same state.
            try await timed(.snapshot) { () throws(StepFailure) in
                try step(.snapshot) { () throws(OutputError) in try store.save(snapshot: snapshot, history: history) }
            }
            let markdownChanged = (plan.writes.map(\.url) + plan.removals.map(\.url)).contains {
                $0.path.hasPrefix(configuration.output.markdown.path + "/")
            }
            if configuration.gitCommit, markdownChanged {
                let summary = changes.isEmpty ? "pages updated" : changes.summary
                if let warning = GitCommitter(folder: configuration.output.markdown)
                    .commit(message: "\(configuration.title): \(summary)")
                {
                    problems.append(warning)
                }
            }
        }
        return BuildReport(
            rowsRead: data.rowsRead, orders: data.orders.count, rejected: data.rejected.count, changes: changes,
            warnings: data.warnings, problems: problems,
            written: plan.writes.map(\.url), unchanged: plan.unchanged, removed: plan.removals.map(\.url),
            requests: fetched.requests, dryRun: options.dryRun, timings: timings)
    }

    /// Reads every source; a `token_env` naming an unset variable fails as configuration (exit 64).
    private func fetch(_ options: Fetcher.Options) async throws(StepFailure) -> FetchedData {
        let fetcher = try step(.configure) { () throws(ConfigurationError) in
            try Fetcher(
                configuration: configuration, clock: clock, environment: environment, options: options,
                transport: transport, retryPolicy: retryPolicy)
        }
        return try await step(.fetch) { () async throws(SourceError) in try await fetcher.fetch() }
    }

    private func validate(_ fetched: FetchedData) throws(StepFailure) -> (data: ValidatedData, secrets: SecretCells) {
        let validator = Validator(configuration: configuration)
        var data = try step(.validate) { () throws(DataError) in
            try validator.validate(orders: fetched.orders, groups: fetched.groups)
        }
        data.warnings = (fetched.warnings + data.warnings).sorted()
        return (data, validator.secretCells(of: fetched.orders))
    }

    private func step<T, E: OrderPressFailure>(_ step: Step, _ body: () async throws(E) -> T) async throws(StepFailure) -> T {
        do {
            return try await body()
        } catch {
            throw StepFailure(step: step, underlying: error)
        }
    }

    private func step<T, E: OrderPressFailure>(_ step: Step, _ body: () throws(E) -> T) throws(StepFailure) -> T {
        do {
            return try body()
        } catch {
            throw StepFailure(step: step, underlying: error)
        }
    }
}
