import Foundation
import OrderPressCatalogue
import OrderPressConfig
import OrderPressPublish
import OrderPressRender
import OrderPressSupport

extension StaleNotice {
    /// `blocked`: the guard has refused every build since `since` (the sheet itself can be read).
    /// `labels`: the site's words, as the build's configure step made them.
    package init(configuration: Configuration, labels: Labels, since: Date, blocked: Bool = false) {
        let time = "\(Timestamp.display(since, timeZone: configuration.timeZone)) (\(configuration.timeZone.identifier))"
        // The time is digits and a zone name: nothing in it is Markdown.
        let line = "> ⚠ **\(labels.markdown(blocked ? "not_updated_blocked" : "not_updated_since", ["time": time]))**\n"
        self.init(configuration.output, markdown: line, html: CMark.site.html(from: line))
    }
}
