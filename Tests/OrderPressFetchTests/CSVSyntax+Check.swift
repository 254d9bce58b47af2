@testable import OrderPressFetch
import OrderPressTestSupport

extension CSVSyntax {
    /// The first problem in `bytes`, or nil when the whole file is well-formed.
    static func check(_ bytes: UnsafeRawBufferPointer) -> Problem? {
        scan(bytes).problem
    }
}
