import Foundation
import OrderPressSupport
import OrderPressConfig
import OrderPressPipeline

// Test-only (never part of a product): `orderpress build --quiet` that can stop at a pause point, for
// the crash tests in CronTests. With ORDERPRESS_TEST_PAUSE=<point>:<n>, the n-th time the build
// reaches <point> (see TestHook.Point) it creates the file named by ORDERPRESS_TEST_SIGNAL and waits
// there to be killed. The `orderpress` binary installs no hook and ignores these variables.

final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.withLock { value += 1; return value } }
}

let environment = ProcessInfo.processInfo.environment
if let value = environment["ORDERPRESS_TEST_PAUSE"], let signal = environment["ORDERPRESS_TEST_SIGNAL"] {
    let parts = value.split(separator: ":")
    guard parts.count == 2, let point = TestHook.Point(rawValue: String(parts[0])), let count = Int(parts[1]) else {
        FileHandle.standardError.write(Data("orderpress-crashtest: ORDERPRESS_TEST_PAUSE must be <point>:<n>\n".utf8))
        exit(64)
    }
    let counter = Counter()
    TestHook.install { reached in
        guard reached == point, counter.next() == count else { return }
        _ = FileManager.default.createFile(atPath: signal, contents: Data())
        while true { sleep(60) }
    }
}

do {
    let configuration = try ConfigurationLoader.load(from: URL(fileURLWithPath: "orderpress.toml"))
    _ = try await Pipeline(configuration: configuration, clock: .fromEnvironment()).build()
} catch let error as any OrderPressFailure {
    FileHandle.standardError.write(Data("orderpress-crashtest: \(error.description)\n".utf8))
    exit(error.exitStatus.rawValue)
}
