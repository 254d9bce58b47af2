import Foundation
import OrderPressCatalogue
import OrderPressSupport

/// News in the site's language: the labels (never the data) translated, with a link to the page about
/// it when `base_url` is set. Values stay as written. Plain text: `--quiet` escapes it for a terminal
/// and the webhook for Slack and Markdown (`Webhook.escaped`).
package struct NewsText: Sendable {
    package var labels: Labels
    package var baseURL: String?

    package init(labels: Labels, baseURL: String?) {
        self.labels = labels
        self.baseURL = baseURL
    }

    /// `item` with its line in the site's language; `details`, a rejected row's reasons with their codes.
    func localized(_ item: NewsItem, details: [Reason] = []) -> NewsItem {
        var item = item
        let id = item.id.map { " (id \($0))" } ?? ""
        let who = item.person.isEmpty ? "" : " \(item.person)"
        let name = item.what.split(separator: "×", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let why = details.isEmpty ? item.reasons.joined(separator: "; ") : details.map(plain).joined(separator: labels["reason_separator"])
        let parts = [name.isEmpty ? "" : item.what, item.group, item.amount ?? why].filter { !$0.isEmpty }
        let head = "\(labels["news_\(item.kind.rawValue)"])\(labels["colon"])\(labels.text("news_row", ["row": String(item.row)]))\(id)\(who)"
        item.text = "\(head)\(labels["colon"])\(parts.joined(separator: " · "))" + link(item.kind == .deleted ? "changes.html" : "attention.html")
        return item
    }

    /// A source that started failing: which one and since when. Not why: the reason names the source's
    /// address or path, which must not leave the machine (the terminal's error line says it).
    package func failing(source: String?, since: String) -> NewsItem {
        let text = labels.text("news_failing", ["source": sourceName(source), "time": since]) + link("index.html")
        return NewsItem(kind: .failing, row: 0, id: nil, group: "", person: "", what: "", amount: nil, reasons: [], text: text)
    }

    /// A source that works again after failing since `since`.
    package func recovered(source: String?, since: String) -> NewsItem {
        let text = labels.text("news_recovered", ["source": sourceName(source), "time": since]) + link("index.html")
        return NewsItem(kind: .recovered, row: 0, id: nil, group: "", person: "", what: "", amount: nil, reasons: [], text: text)
    }

    /// A build the mass-deletion guard refused: how many orders, and how to proceed.
    package func blocked(lost: Int, of previous: Int, reason: String) -> NewsItem {
        let text = labels.text("news_blocked", ["lost": String(lost), "total": String(previous)]) + link("index.html")
        return NewsItem(kind: .blocked, row: 0, id: nil, group: "", person: "", what: "", amount: nil, reasons: [reason], text: text)
    }

    private func sourceName(_ source: String?) -> String {
        guard let source, Labels.keys.contains("reason_table_\(source)") else { return source ?? labels["reason_table_orders"] }
        return labels["reason_table_\(source)"]
    }

    /// " https://…/changes.html" with `base_url`, else nothing.
    private func link(_ page: String) -> String {
        guard let baseURL, !baseURL.isEmpty else { return "" }
        return " " + (baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + page
    }

    /// A reason in the site's language as plain text (the pages' `Labels.reason` makes Markdown).
    private func plain(_ reason: Reason) -> String {
        let key = reason.code.labelKey
        if labels[key] == ReasonCatalogue.english[key] { return reason.english }
        let names = Array(reason.values.keys)
        return Labels.Filler(labels[key], names: names, literal: { $0 }).fill(names.map { reason.values[$0]! })
    }
}
