import Foundation
import OrderPressSupport

/// The one place the command line prints: every line is escaped with `TerminalEscaper`, so that text
/// from the data, the configuration or a server can never drive the operator's terminal.
enum Terminal {
    /// One line on standard output.
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((TerminalEscaper.escape(line) + "\n").utf8))
    }

    /// One line on standard error, after the program's name (in bold red for a person at a
    /// terminal; cron mail and pipes get plain text). Only this colour code is OrderPress's own.
    static func error(_ message: String) {
        let name = isatty(STDERR_FILENO) == 1 ? "\u{1B}[1;31morderpress:\u{1B}[0m" : "orderpress:"
        FileHandle.standardError.write(Data("\(name) \(TerminalEscaper.escape(message))\n".utf8))
    }
}
