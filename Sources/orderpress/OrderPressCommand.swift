import ArgumentParser
import Foundation
import OrderPressSupport
import OrderPressConfig

@main
struct OrderPressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orderpress",
        abstract: "Turn group orders into a static website.",
        discussion: """
            Start with `orderpress init DIR`, then run `orderpress build` in DIR (build is the \
            default command: `orderpress` alone builds ./orderpress.toml) and preview the site with \
            `orderpress serve`. From cron: `cd DIR && orderpress build --quiet`. \
            Exit status: 0 success; 64 usage or configuration error; 65 data error (rejected rows \
            under check or build --strict, or the mass-deletion guard); 69 a source could not be \
            fetched or parsed; 73 or 74 output could not be written (73 also: init into a folder \
            that already holds a site); 75 another build holds the lock, or serve's port is in use.
            """,
        version: Version.current,
        subcommands: [
            BuildCommand.self, CheckCommand.self, DiffCommand.self, MarkdownCommand.self, InitCommand.self,
            ServeCommand.self, RestoreCommand.self,
        ],
        defaultSubcommand: BuildCommand.self)
}

/// `--config FILE`, shared by the commands that read a configuration.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "The configuration file.")
    var config: String = "orderpress.toml"

    func load() throws -> Configuration {
        try Failure.report { () throws(ConfigurationError) in
            try ConfigurationLoader.load(from: URL(fileURLWithPath: config))
        }
    }
}

/// Prints an OrderPress failure as one line on stderr and exits with its sysexits status.
enum Failure {
    static func report<T, E: OrderPressFailure>(_ body: () async throws(E) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw exit(error)
        }
    }

    static func report<T, E: OrderPressFailure>(_ body: () throws(E) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw exit(error)
        }
    }

    private static func exit(_ error: some OrderPressFailure) -> ExitCode {
        Terminal.error(error.description)
        return ExitCode(error.exitStatus.rawValue)
    }
}
