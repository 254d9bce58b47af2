import Foundation
import OrderPressCatalogue

extension Labels {
    /// The site's words: its `language` with its `[labels]` applied. The build makes them once, at the
    /// configure step, and hands them to every step that writes words.
    package init(site configuration: Configuration) {
        self.init(language: configuration.language, overrides: configuration.labels)
    }
}
