import Foundation

/// How a source is named in every text that may leave the machine: errors and warnings (cron mails
/// stderr), `status.json` and its reason, news and the webhook. A URL shows its host (and port) only:
/// a SheetDB API's id *is* its path, a key may ride in the path or the query, credentials before the
/// host. A local file shows its name only: an absolute path says whose machine and home folder the
/// site is built in. `URLRedactor` is for the source cache's own record of where a copy came from.
package struct SourceDescription: Sendable, Equatable, CustomStringConvertible {
    package let description: String

    /// `sheetdb.io`, `127.0.0.1:8080`.
    package init(_ url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        guard let host = components?.host, !host.isEmpty else {
            description = "the configured url"
            return
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        description = components?.port.map { "\(shown):\($0)" } ?? shown
    }

    /// `'orders.csv'`.
    package init(file: URL) {
        description = "'\(file.lastPathComponent)'"
    }

    /// What is left of a text once every URL in it shows only its scheme and host and every absolute
    /// path only its last part: a second line of defence for text every reader of the site sees.
    package static func redacted(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "(),;:'\"[]"))
            if word.contains("://") {
                guard let url = URL(string: trimmed), let scheme = url.scheme else { return "…" }
                return word.replacingOccurrences(of: trimmed, with: "\(scheme)://\(SourceDescription(url))")
            }
            guard trimmed.hasPrefix("/"), trimmed.count > 1 else { return String(word) }
            let last = trimmed.split(separator: "/").last.map(String.init) ?? ""
            return word.replacingOccurrences(of: trimmed, with: last)
        }.joined(separator: " ")
    }
}
