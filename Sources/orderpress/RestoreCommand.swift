import ArgumentParser
import Foundation
import OrderPressSupport
import OrderPressNotify
import OrderPressPipeline

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Print a deleted order as a tab-separated row of the sheet, ready to paste back.",
        discussion: """
            ORDER is an order's id (`orderpress restore 42`), its person and item \
            (`orderpress restore Ben 熟成紅茶`), or its person alone; a person may be named by a whole word \
            of the name (`ben` or `o'neil` for Ben O'Neil), in any case. Searches the orders the last build \
            had that the sheet no longer holds, then the deletions in the history. Secret cells (edit codes) \
            are left empty. Exit 65, naming the closest deleted orders, when none matches, and listing them \
            when several do (--all prints them all). Writes nothing.
            """)

    @OptionGroup var config: ConfigOption

    @OptionGroup var source: SourceOptions

    @Argument(help: "An id, or a person and item.")
    var order: [String]

    @Flag(help: "Print every deleted order ORDER matches, not only a single one.")
    var all = false

    func validate() throws {
        if order.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("Name the order: an id, or a person and item.")
        }
    }

    /// How many matches the message lists when several do.
    static let listed = 10

    func run() async throws {
        let configuration = try config.load()
        let pipeline = Pipeline(configuration: configuration, clock: .fromEnvironment())
        let deleted = try await Failure.report { () async throws(StepFailure) in try await pipeline.deletedOrders(offline: source.offline) }
        if let problem = deleted.problem {
            Terminal.error("warning: the sheet could not be read, so only the history was searched (\(problem))")
        }
        let wanted = order.joined(separator: " ")
        let matches = deleted.matching(wanted)
        guard !matches.isEmpty else {
            let closest = deleted.closest(to: wanted)
            let hint = closest.isEmpty ? "no deleted order is known" : "closest: \(closest.joined(separator: "; "))"
            Terminal.error("restore: no deleted order matches '\(wanted)'; \(hint)")
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
        // Several: which one to paste back is the user's to say, never picked here.
        guard matches.count == 1 || all else {
            let shown = matches.prefix(Self.listed).map { "\(DeletedOrders.label($0)), row \($0.row)" }
            let more = matches.count > Self.listed ? "; and \(matches.count - Self.listed) more" : ""
            Terminal.error(
                "restore: '\(wanted)' matches \(matches.count) deleted orders (\(shown.joined(separator: "; "))\(more)); "
                    + "name one by its id, or its person and item, or add --all to print all \(matches.count)")
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
        Terminal.error(
            "\(Counted.text(matches.count, "deleted order")); columns: "
                + deleted.headers.joined(separator: ", ") + ". Paste into the sheet's first empty row, then build.")
        // Each cell escaped on its own: the tabs between them are the row's, and must stay tabs.
        for record in matches {
            FileHandle.standardOutput.write(Data((deleted.cells(record).map(TerminalEscaper.escape).joined(separator: "\t") + "\n").utf8))
        }
    }
}
