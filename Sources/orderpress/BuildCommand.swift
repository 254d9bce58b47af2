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
        let pipeline = Pipeline(configuration: configuration, clock: .fromEnvironment(), progress: display.show)
        let report = try await Failure.report { () async throws(StepFailure) in
            defer { display.clear() }
            return try await pipeline.build(
                .init(strict: strict, dryRun: dryRun, acceptDeletions: acceptDeletions, offline: source.offline))
        }
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
}
