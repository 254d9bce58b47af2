import ArgumentParser
import Foundation
import OrderPressSupport

/// `build` is the default subcommand, so swift-argument-parser reads an unknown first word
/// (`orderpress biuld`) as an argument of `build` and prints build's usage. A first word that is
/// not an option and not a command is caught here instead: one line listing the commands, with
/// the nearest one as a hint. Options and no arguments at all still mean `build`.
extension OrderPressCommand {
    static func main() async {
        if let word = CommandLine.arguments.dropFirst().first, let message = unknownCommandMessage(word) {
            Terminal.error(message)
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        await main(nil)
    }

    /// Nil when `word` is an option or a command.
    static func unknownCommandMessage(_ word: String) -> String? {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let hint = Spelling.nearest(to: word, among: names).map { "did you mean '\($0)'? " } ?? ""
        let list = names.map { $0 == "build" ? "build (default)" : $0 }.joined(separator: ", ")
        return "unknown command '\(word)'; \(hint)commands: \(list); see `orderpress help`"
    }
}
