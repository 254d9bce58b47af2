import ArgumentParser
import Foundation
import OrderPressScaffold

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new site that builds at once: orderpress.toml, sample data, templates.",
        discussion: """
            DIR is created when missing; an empty folder is fine. A folder that already holds \
            orderpress.toml, or any file init would write, is refused (exit 73) and left as it was.
            """)

    @Argument(help: "The folder of the new site.")
    var directory: String

    func run() throws {
        try Failure.report { () throws(ScaffoldError) in
            try SiteScaffold(clock: .fromEnvironment()).write(into: SiteScaffold.folder(named: directory))
        }
        Terminal.print("Created a new site in \(directory). Next:")
        Terminal.print("  cd \(directory) && orderpress build && orderpress serve")
        Terminal.print("then read \(directory)/README.txt for what to edit first.")
    }
}
