import Crypto
import Foundation
import OrderPressCatalogue
import OrderPressDiff
import OrderPressSupport

/// `feed.xml`: an Atom 1.0 feed with one entry per run that changed something.
struct AtomFeed {
    package let context: SiteContext
    private var labels: Labels { context.labels }

    func xml() -> Data {
        let title = context.configuration.title
        let entries = context.history.prefix(PageBuilder.changeRuns)
        // With base_url every link is absolute, as feed readers expect; without it they stay
        // relative to feed.xml, which is all a site served from anywhere can say.
        let base = XMLEscaper.escape(context.configuration.baseURL ?? "")
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            #"<feed xmlns="http://www.w3.org/2005/Atom">"#,
            "<title>\(XMLEscaper.escape(labels.text("feed_title", ["title": title])))</title>",
            "<id>urn:uuid:\(context.siteID.uuidString.lowercased())</id>",
            "<updated>\(entries.first?.time ?? "1970-01-01T00:00:00Z")</updated>",
            "<author><name>OrderPress</name></author>",
            #"<link rel="self" type="application/atom+xml" href="\#(base)feed.xml"/>"#,
            #"<link rel="alternate" type="text/html" href="\#(base)changes.html"/>"#,
        ]
        for entry in entries {
            lines += [
                "<entry>",
                "<id>urn:uuid:\(Self.entryID(site: context.siteID, entry: entry.id))</id>",
                "<title>\(XMLEscaper.escape(labels.summary(entry.changes)))</title>",
                "<updated>\(entry.time)</updated>",
                #"<link rel="alternate" type="text/html" href="\#(base)changes.html"/>"#,
                "<content type=\"text\">\(XMLEscaper.escape(content(entry.changes)))</content>",
                "</entry>",
            ]
        }
        lines.append("</feed>")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// A name-based UUID (version 5 layout, SHA-256 of the site id and the entry's number in the history):
    /// stable across rebuilds, different in every site and for every entry, even two runs in one second.
    static func entryID(site: UUID, entry: String) -> String {
        var bytes = Array(SHA256.hash(data: Data("\(site.uuidString.lowercased()):\(entry)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Hex.lowercase(bytes)
        return [0...7, 8...11, 12...15, 16...19, 20...31].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)...hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }.joined(separator: "-")
    }

    /// Plain-text lines in the Changes page's order: losses (deleted, no longer counted) first.
    private func content(_ changes: ChangeSet) -> String {
        // As many rows per section as the Changes page, so that a run adding every order keeps the feed small.
        let limit = context.limits.changeRows
        func more(_ count: Int, _ key: String) -> [String] {
            count > limit ? [labels.text(key, ["count": String(count - limit)])] : []
        }
        var lines: [String] = []
        for (group, count) in changes.closedRounds {
            lines.append(labels.text("round_closed_line", ["group": group, "count": String(count)]))
        }
        for record in changes.deleted.prefix(limit) { lines.append("\(labels["deleted"]): \(describe(record))") }
        lines += more(changes.deleted.count, "more_deleted")
        for change in changes.noLongerCounted.prefix(limit) {
            lines.append("\(labels["no_longer_counted"]): \(describe(change.before)): \((change.reasons ?? []).joined(separator: "; "))")
        }
        lines += more(changes.noLongerCounted.count, "more_no_longer_counted")
        for record in changes.added.prefix(limit) { lines.append("\(labels["added"]): \(describe(record))") }
        lines += more(changes.added.count, "more_added")
        for change in changes.changed.prefix(limit) {
            let fields = change.fields.keys.sorted().map { "\($0) \(change.fields[$0]![0]) → \(change.fields[$0]![1])" }
            lines.append("\(labels["changed"]): \(change.after.person), \(change.after.item) (\(change.after.group)): \(fields.joined(separator: "; "))")
        }
        lines += more(changes.changed.count, "more_changed")
        for change in changes.nowCounted.prefix(limit) { lines.append("\(labels["now_counted"]): \(describe(change.after))") }
        lines += more(changes.nowCounted.count, "more_now_counted")
        return lines.isEmpty ? labels.summary(changes) : lines.joined(separator: "\n")
    }

    private func describe(_ record: RowRecord) -> String {
        "\(record.person), \(record.what), \(record.group), \(context.amountText(record))"
    }
}
