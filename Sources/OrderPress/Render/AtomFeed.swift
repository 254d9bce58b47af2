import Foundation

/// `feed.xml`: an Atom 1.0 feed with one entry per run that changed something.
struct AtomFeed {
    let context: SiteContext
    private var labels: Labels { context.labels }

    func xml() -> Data {
        let title = context.configuration.title
        let entries = context.history.prefix(PageBuilder.changeRuns)
        // The feed's id must never change: derive it from the site's title, not from the run.
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            #"<feed xmlns="http://www.w3.org/2005/Atom">"#,
            "<title>\(XMLText.escape(labels.text("feed_title", ["title": title])))</title>",
            "<id>urn:orderpress:\(Slugger.hash(title, length: 16))</id>",
            "<updated>\(entries.first?.time ?? "1970-01-01T00:00:00Z")</updated>",
            "<author><name>OrderPress</name></author>",
            #"<link rel="self" href="feed.xml"/>"#,
            #"<link rel="alternate" type="text/html" href="changes.html"/>"#,
        ]
        for entry in entries {
            lines += [
                "<entry>",
                "<id>urn:orderpress:\(Slugger.hash(title, length: 16)):\(entry.id)</id>",
                "<title>\(XMLText.escape(labels.summary(entry.changes)))</title>",
                "<updated>\(entry.time)</updated>",
                #"<link rel="alternate" type="text/html" href="changes.html"/>"#,
                "<content type=\"text\">\(XMLText.escape(content(entry.changes)))</content>",
                "</entry>",
            ]
        }
        lines.append("</feed>")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Plain-text lines: deletions first, as on the Changes page.
    private func content(_ changes: ChangeSet) -> String {
        var lines: [String] = []
        for record in changes.deleted { lines.append("\(labels["deleted"]): \(describe(record))") }
        for record in changes.added { lines.append("\(labels["added"]): \(describe(record))") }
        for change in changes.changed {
            let fields = change.fields.keys.sorted().map { "\($0) \(change.fields[$0]![0]) → \(change.fields[$0]![1])" }
            lines.append("\(labels["changed"]): \(change.after.person), \(change.after.item) (\(change.after.group)): \(fields.joined(separator: "; "))")
        }
        return lines.isEmpty ? labels.summary(changes) : lines.joined(separator: "\n")
    }

    private func describe(_ record: RowRecord) -> String {
        "\(record.person), \(record.what), \(record.group), \(context.amountText(record))"
    }
}
