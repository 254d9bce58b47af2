import ArgumentParser
import Foundation
import OrderPressDiff
import OrderPressPipeline

struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: "Compare the sheet with the last build's snapshot; deletions first. Writes nothing.")

    @OptionGroup var config: ConfigOption

    @OptionGroup var source: SourceOptions

    func run() async throws {
        let configuration = try config.load()
        let pipeline = Pipeline(configuration: configuration, clock: .fromEnvironment())
        let (changes, since) = try await Failure.report { () async throws(StepFailure) in try await pipeline.diff(offline: source.offline) }
        for (group, count) in changes.closedRounds { Terminal.print("round closed  \(group): \(count) orders (archived by the next build)") }
        for record in changes.deleted { Terminal.print("deleted  \(Self.describe(record))") }
        for change in changes.noLongerCounted {
            let reasons = (change.reasons ?? []).joined(separator: "; ")
            Terminal.print("no longer counted  \(Self.describe(change.before, at: change.after.row)): \(reasons)")
        }
        for record in changes.added { Terminal.print("added    \(Self.describe(record))") }
        for change in changes.changed {
            Terminal.print("changed  \(Self.describe(change.after)): \(Self.fields(change))")
        }
        for change in changes.nowCounted { Terminal.print("now counted  \(Self.describe(change.after))") }
        if changes.firstRun {
            Terminal.print("first run: nothing to compare")
        } else {
            Terminal.print("\(changes.isEmpty ? "no changes" : changes.summary) since the build of \(since ?? "?")")
        }
    }

    /// "row 12 (id 11) Ben: 1 × 熟成紅茶 L 半糖 少冰 · 週五下午茶 · 35 TWD"; `row` where it stands, when not its own.
    static func describe(_ record: RowRecord, at row: Int? = nil) -> String {
        let id = record.id.map { " (id \($0))" } ?? ""
        let amount = record.amount.map { "\($0) \(record.currency)" } ?? "rejected"
        return "row \(row ?? record.row)\(id) \(record.person): \(record.what) · \(record.group) · \(amount)"
    }

    /// "price 60 → 65; sugar 半糖 → 無糖".
    static func fields(_ change: ChangeSet.Change) -> String {
        change.fields.keys.sorted().map { "\($0) \(change.fields[$0]![0]) → \(change.fields[$0]![1])" }.joined(separator: "; ")
    }
}
