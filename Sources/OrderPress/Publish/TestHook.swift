import Foundation

/// A pause point for crash tests: with `ORDERPRESS_TEST_PAUSE=<point>:<n>`, the n-th time the build
/// reaches `point` it creates the file named by `ORDERPRESS_TEST_SIGNAL` and stops there, so that a
/// test can kill it at that exact moment. Without the variable it does nothing.
enum TestHook {
    enum Point: String {
        /// A temporary file is complete but not yet renamed over the old one.
        case beforeRename = "before-rename"
        /// A file has just been put in place.
        case afterWrite = "after-write"
    }

    private static let setting: (point: Point, count: Int, signal: String)? = {
        let environment = ProcessInfo.processInfo.environment
        guard let value = environment["ORDERPRESS_TEST_PAUSE"], let signal = environment["ORDERPRESS_TEST_SIGNAL"] else {
            return nil
        }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let point = Point(rawValue: String(parts[0])), let count = Int(parts[1]) else { return nil }
        return (point, count, signal)
    }()

    private static let counter = Counter()

    static func reached(_ point: Point) {
        guard let setting, setting.point == point, counter.next() == setting.count else { return }
        _ = FileManager.default.createFile(atPath: setting.signal, contents: Data())
        while true { sleep(60) }
    }

    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}
