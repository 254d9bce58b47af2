import Foundation

/// The whole build as named steps, each a function from values to values:
/// fetch → validate → aggregate → render → publish.
public struct Pipeline: Sendable {
    public var configuration: Configuration
    public var clock: Clock
    /// Where the variables that `token_env` names are read.
    public var environment: [String: String]
    var transport: any HTTPTransport = URLSessionTransport()
    var retryPolicy = RetryPolicy()

    public struct Options: Sendable {
        /// Refuse to publish when any row is rejected.
        public var strict = false
        /// Plan the publish step, but write nothing.
        public var dryRun = false
        /// Read URL sources only from their cached copies.
        public var offline = false

        public init(strict: Bool = false, dryRun: Bool = false, offline: Bool = false) {
            self.strict = strict
            self.dryRun = dryRun
            self.offline = offline
        }
    }

    public init(configuration: Configuration, clock: Clock, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configuration = configuration
        self.clock = clock
        self.environment = environment
    }

    /// Fetches and validates only, as `orderpress check` does.
    public func check(offline: Bool = false) async throws(StepFailure) -> ValidatedData {
        validate(try await fetch(.init(offline: offline)))
    }

    public func build(_ options: Options = .init()) async throws(StepFailure) -> BuildReport {
        var timings: [(Step, Double)] = []
        func timed<T>(_ step: Step, _ body: () async throws(StepFailure) -> T) async throws(StepFailure) -> T {
            let start = ContinuousClock.now
            let result = try await body()
            let elapsed = ContinuousClock.now - start
            timings.append((step, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            return result
        }

        let renderer = try await timed(.configure) { () throws(StepFailure) in
            try step(.configure) { () throws(ConfigurationError) in try SiteRenderer(templateOverrides: configuration.templates) }
        }
        let fetched = try await timed(.fetch) { () async throws(StepFailure) in
            try await fetch(.init(offline: options.offline, saveCache: !options.dryRun))
        }
        let data = try await timed(.validate) { validate(fetched) }
        if options.strict, !data.rejected.isEmpty {
            throw StepFailure(
                step: .validate,
                underlying: DataError(
                    message: "\(data.rejected.count) of \(data.rowsRead) rows were rejected and --strict publishes nothing; run 'orderpress check' to list them"))
        }
        let aggregation = try await timed(.aggregate) { Aggregator.aggregate(data) }
        let site = try await timed(.render) {
            renderer.render(
                configuration: configuration, data: data, aggregation: aggregation, rates: fetched.rates, now: clock.now)
        }
        let publisher = Publisher(output: configuration.output)
        let plan = try await timed(.publish) { () throws(StepFailure) in
            let plan = publisher.plan(site)
            if !options.dryRun {
                try step(.publish) { () throws(OutputError) in try publisher.apply(plan) }
            }
            return plan
        }
        return BuildReport(
            rowsRead: data.rowsRead, orders: data.orders.count, rejected: data.rejected.count, warnings: data.warnings,
            written: plan.writes.map(\.url), unchanged: plan.unchanged, removed: plan.removals,
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

    private func validate(_ fetched: FetchedData) -> ValidatedData {
        var data = Validator(configuration: configuration).validate(orders: fetched.orders, groups: fetched.groups)
        data.warnings = (fetched.warnings + data.warnings).sorted()
        return data
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
