import ArgumentParser
import Foundation
import OrderPressSupport
import OrderPressRender

struct MarkdownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markdown",
        abstract: "Render GitHub-Flavored Markdown to HTML, as `cmark-gfm -e table -e strikethrough -e autolink -e tagfilter -e tasklist` does.")

    @Argument(help: "The Markdown file; standard input when omitted.")
    var file: String?

    func run() throws {
        let data: Data
        if let file {
            guard let contents = FileManager.default.contents(atPath: file) else {
                Terminal.error("markdown: cannot read \(file); check the path")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            data = contents
        } else {
            // Not `readDataToEndOfFile`, whose failure (memory running out under a limit) is a `try!` crash.
            switch StandardInput.contents() {
            case .success(let contents):
                data = contents
            case .failure(let failure):
                Terminal.error("markdown: cannot read standard input (\(failure.reason)); pass a smaller document, or its path as FILE")
                throw ExitCode(ExitStatus.ioError.rawValue)
            }
        }
        FileHandle.standardOutput.write(CMark.commandLine.html(from: data))
    }
}
