import Foundation

extension StaleNotice {
    /// `blocked`: the guard has refused every build since `since` (the sheet itself can be read).
    init(configuration: Configuration, since: Date, blocked: Bool = false) {
        let labels = Labels(language: configuration.language, overrides: configuration.labels)
        let time = "\(Timestamp.display(since, timeZone: configuration.timeZone)) (\(configuration.timeZone.identifier))"
        // The time is digits and a zone name: nothing in it is Markdown.
        let line = "> ⚠ **\(labels.markdown(blocked ? "not_updated_blocked" : "not_updated_since", ["time": time]))**\n"
        self.init(configuration.output, markdown: line, html: CMark.site.html(from: line))
    }
}
