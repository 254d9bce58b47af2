import ArgumentParser
import Foundation
import Logging
import OrderPress

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

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
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
        let report: BuildReport
        do {
            defer { display.clear() }
            report = try await pipeline.build(
                .init(strict: strict, dryRun: dryRun, acceptDeletions: acceptDeletions, offline: source.offline))
        } catch {
            throw sayFailure(error, health: health)
        }
        if let line = health.said.recovered { Terminal.error(line) }
        if quiet, !dryRun {
            for line in report.news.lines(printing: configuration.notify.print) { Terminal.print(line) }
        }
        if !dryRun, let delivery, let warning = await delivery.run(report.news) { logger.warning("\(warning)") }
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

    /// A source that cannot be read is said when the failure starts; with `--quiet`, not again while it
    /// lasts (cron would mail it every run). The exit status says it every run. Other failures are said
    /// every time: each needs a person.
    /// The pipeline recorded the failure under its lock (`SourceHealth.said`).
    private func sayFailure(_ failure: StepFailure, health: SourceHealth) -> ExitCode {
        if health.said.started ?? true || !quiet { Terminal.error(failure.description) }
        return ExitCode(failure.exitStatus.rawValue)
    }
}
