@testable import OrderPressSupport

extension DataWarning {
    /// A warning as the tests expect it: `==` compares the row and the English words only, so the code
    /// it is made with does not count.
    package init(row: Int?, message: String) {
        self.init(row: row, Reason(.personMissing, english: message))
        reason = nil
    }
}
