@testable import OrderPressNotify
import OrderPressTestSupport

extension NewsOutbox {
    /// The items waiting, oldest first.
    func load() -> [NewsItem] { contents().entries.map(\.item) }
}
