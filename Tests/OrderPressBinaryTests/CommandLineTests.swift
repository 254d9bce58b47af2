import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// The command word: `--version`, help, a mistyped command, and `build` as the default.
@Suite struct CommandLineTests {
    @Test func printsTheVersionFromTheLibrary() throws {
        let result = try TestSupport.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == Version.current + "\n")
    }

    @Test(arguments: [["help"], ["--help"]])
    func helpListsEveryCommand(arguments: [String]) throws {
        let result = try TestSupport.run(arguments)
        #expect(result.status == 0)
        for line in ["  build (default)", "  check ", "  diff ", "  markdown ", "  init ", "  serve ", "  --version "] {
            #expect(result.stdout.contains(line), "\(line)")
        }
    }

    /// `build`, `check` and `diff` share their source options: each one's help lists `--offline`.
    @Test(arguments: ["build", "check", "diff"])
    func theSourceOptionsAreOnBuildCheckAndDiff(command: String) throws {
        let result = try TestSupport.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("[--offline]"), "\(result.stdout)")
        #expect(result.stdout.contains("  --offline  "), "\(result.stdout)")
    }

    @Test(arguments: [
        ("biuld", "did you mean 'build'? "), ("serv", "did you mean 'serve'? "), ("Init", "did you mean 'init'? "),
        ("chekc", "did you mean 'check'? "), ("publish", ""), ("orderpress.toml", ""),
    ])
    func anUnknownCommandListsTheCommands(word: String, hint: String) throws {
        let result = try TestSupport.run([word, "--quiet"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            orderpress: unknown command '\(word)'; \(hint)commands: build (default), check, diff, markdown, init, serve, restore, help; \
            see `orderpress help`

            """)
    }

    /// No arguments, or an option first, still runs `build`, which reads ./orderpress.toml.
    @Test(arguments: [[], ["--quiet"], ["--offline", "-q"]])
    func buildStaysTheDefault(arguments: [String]) throws {
        let folder = TestSupport.temporaryFolder()
        let result = try TestSupport.run(arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("orderpress: \(folder.path)/orderpress.toml: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
