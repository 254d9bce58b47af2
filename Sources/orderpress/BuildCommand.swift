import ArgumentParser
import Foundation
import Logging
import OrderPressSupport
import OrderPressConfig
import OrderPressNotify
import OrderPressPipeline

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Fetch, validate, total and publish the site.")

    @OptionGroup var config: ConfigOption

    @Flag(help: "Publish nothing when any row is rejected (exit 65).")
    var strict = false

    @Flag(help: "List what would be written and removed; write nothing.")
    var dryRun = false

    @Flag(help: "Publish even when more of the last run's orders vanished than [guard] max_deleted_fraction allows.")
    var acceptDeletions = false

    @OptionGroup var source: SourceOptions

    @Flag(name: .shortAndLong, help: "Print only news, for cron: orders deleted, rows newly rejected, a source that starts or stops failing, a build the guard refused (as [notify] print chooses); nothing when nothing happened.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print each step's timing and every warning.")
    var verbose = false

    @Option(help: "Show the step being run on stderr: auto (when stderr is a terminal), always or never.")
    var progress: ProgressMode = .auto

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
    }

    func run() async throws {
        let logger = Log.bootstrap(quiet: quiet, verbose: verbose)
        let configuration = try config.load()
        let display = ProgressDisplay(enabled: progress.isEnabled && !quiet)
        let clock = Clock.fromEnvironment()
        let health = SourceHealth(configuration)
        var pipeline = Pipeline(configuration: configuration, clock: clock, progress: display.show)
        pipeline.health = health
        let delivery = try Failure.report { () throws(ConfigurationError) in
            try NewsDelivery.configured(configuration, environment: ProcessInfo.processInfo.environment)
        }
        pipeline.outbox = delivery?.outbox
        let report: BuildReport
        do {
            defer { display.clear() }
            report = try await pipeline.build(
                .init(strict: strict, dryRun: dryRun, acceptDeletions: acceptDeletions, offline: source.offline))
        } catch {
            let status = sayFailure(error, health: health)
            // A dry run writes and sends nothing, failing or not.
            await tell(health.said.news, delivery: dryRun ? nil : delivery, logger: logger)
            throw status
        }
        let recovery = health.said.news.contains { $0.kind == .recovered }
        if let line = health.said.recovered, !(quiet && recovery) { Terminal.error(line) }
        await tell(dryRun ? [] : health.said.news + report.news.chosen(configuration.notify.print), delivery: dryRun ? nil : delivery, logger: logger)
        for problem in report.problems {
            logger.warning("\(problem)")
        }
        for warning in report.warnings {
            logger.info("\(warning.row.map { "row \($0): " } ?? "")\(warning.message)")
        }
        for (step, seconds) in report.timings {
            logger.debug("\(step.rawValue): \(String(format: "%.3f s", locale: Locale(identifier: "en_US_POSIX"), seconds))")
        }
        if dryRun {
            for url in report.written { Terminal.print("write  \(url.path)") }
            for url in report.removed { Terminal.print("remove \(url.path)") }
        }
        if !quiet { Terminal.print(report.summaryLine) }
    }

    /// With `--quiet`, prints the run's news (the pipeline already put it in the webhook's outbox), then
    /// sends the outbox. A webhook that fails is said under `--quiet` once, when it starts failing, and
    /// once when it works again; without `--quiet`, every run.
    private func tell(_ news: [NewsItem], delivery: NewsDelivery?, logger: Logger) async {
        if quiet { for item in news { Terminal.print(item.shown) } }
        guard let delivery, let said = await delivery.send() else { return }
        if quiet {
            if said.evenWhenQuiet { Terminal.error(said.line) }
        } else {
            logger.warning("\(said.line)")
        }
    }

    /// A source that cannot be read is said when the failure starts; with `--quiet`, not again while it
    /// lasts (cron would mail it every run). The exit status says it every run. Other failures are said
    /// every time: each needs a person.
    /// The pipeline recorded the failure under its lock (`SourceHealth.said`).
    private func sayFailure(_ failure: StepFailure, health: SourceHealth) -> ExitCode {
        if health.said.started ?? true || !quiet { Terminal.error(failure.description) }
        return ExitCode(failure.exitStatus.rawValue)
    }
}
