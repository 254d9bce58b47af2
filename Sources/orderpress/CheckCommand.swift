import ArgumentParser
import Foundation
import OrderPressSupport
import OrderPressPipeline

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Fetch and validate only; list every problem with its source row.")

    @OptionGroup var config: ConfigOption

    @OptionGroup var source: SourceOptions

    func run() async throws {
        let configuration = try config.load()
        let pipeline = Pipeline(configuration: configuration, clock: .fromEnvironment())
        let data = try await Failure.report { () async throws(StepFailure) in try await pipeline.check(offline: source.offline) }
        for row in data.rejected {
            // A malformed row has no values to show: its cells could not be matched to columns.
            let values = row.values.isEmpty ? "" : " [" + row.values.map { "\($0.column): \($0.value)" }.joined(separator: " · ") + "]"
            Terminal.print("row \(row.row): rejected: \(row.reasons.joined(separator: "; "))\(values)")
        }
        for warning in data.warnings {
            // A warning about a whole source names the source in its message ("groups row 3: …", "rates: …").
            Terminal.print("\(warning.row.map { "row \($0): " } ?? "")warning: \(warning.message)")
        }
        let blank = (data.blankRows == 0 ? "" : ", \(Counted.text(data.blankRows, "blank row")) skipped") + BuildReport.signed(data.amountsWithSign)
        Terminal.print(
            "\(Counted.text(data.rowsRead, "row")): \(data.orders.count) valid, \(data.rejected.count) rejected, \(Counted.text(data.warnings.count, "warning"))\(blank)")
        if !data.rejected.isEmpty {
            Terminal.error("check: \(Counted.text(data.rejected.count, "row")) rejected; fix \(data.rejected.count == 1 ? "it" : "them") in the sheet")
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
    }
}
