@testable import OrderPressRender
import OrderPressTestSupport

extension ListPages {
    /// The pages a pager links to from `page` of this list (`pagerPages(around:of:)` with its page count).
    func pagerPages(around page: Int) -> [Int?] {
        Self.pagerPages(around: page, of: pageCount)
    }
}
