@testable import OrderPressNotify

extension NewsOutbox {
    /// The items waiting, oldest first.
    func load() -> [NewsItem] { contents().entries.map(\.item) }
}
