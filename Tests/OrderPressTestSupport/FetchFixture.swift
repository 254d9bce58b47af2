import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch

/// Fetchers pointed at a `LocalServer`, with the retry waits recorded instead of slept.
package enum FetchFixture {
    package static let token = "tok-3f9a-SECRET-77"
    package static let tokenVariable = "ORDERPRESS_TEST_TOKEN"
    /// 2026-11-21 08:00:00 UTC.
    package static let now = Date(timeIntervalSince1970: 1_795_248_000)

    /// Five orders whose private cells must never reach a message or the cache.
    package static let rows: [[String: String]] = (1...5).map {
        [
            "id": "\($0)", "group": "週五下午茶", "orderer": "P\($0)", "drink": "紅茶", "price": "35",
            "editCode": "EDIT\($0)xQz", "phone": "0900-111-22\($0)",
        ]
    }

    package static let rter = #"{"USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 08:00:00"}, "USDJPY": {"Exrate": 154.32, "UTC": "2026-11-21 08:00:00"}}"#

    /// The waits a retry policy asked for.
    package actor Sleeps {
        package init() {}
        package var durations: [Duration] = []
        package func record(_ duration: Duration) { durations.append(duration) }
    }

    /// `[orders]` from the server's `/api/v1/abc?sheet=orders`, with a token; `extra` adds keys or tables.
    package static func toml(_ server: LocalServer, orders: String = "", extra: String = "") -> String {
        """
        base_currency = "TWD"
        [orders]
        url = "\(server.url("/api/v1/abc?sheet=orders"))"
        token_env = "\(tokenVariable)"
        \(orders)
        \(extra)
        """
    }

    package static func fetcher(
        _ toml: String, in folder: URL, environment: [String: String] = [tokenVariable: token], now: Date = now,
        offline: Bool = false, maxAttempts: Int = 4, budgetInTimeouts: Int = 3, timeoutsPerSource: Int = FetchDeadline.timeoutsPerSource,
        maxBodyBytes: Int = URLSessionTransport.maxBodyBytes, sleeps: Sleeps = Sleeps()
    ) throws -> Fetcher {
        var policy = RetryPolicy()
        policy.maxAttempts = maxAttempts
        policy.budgetInTimeouts = budgetInTimeouts
        policy.timeoutsPerSource = timeoutsPerSource
        policy.random = { 0.5 }
        policy.sleep = { await sleeps.record($0) }
        return try Fetcher(
            configuration: TestSupport.configuration(toml, in: folder), clock: Clock(now: now), environment: environment,
            options: .init(offline: offline), transport: URLSessionTransport(maxBodyBytes: maxBodyBytes), retryPolicy: policy)
    }

    /// The error a fetch ends in; records an issue when it succeeds, or when the token shows in the message.
    package static func failure(_ fetcher: Fetcher, sourceLocation: SourceLocation = #_sourceLocation) async -> SourceError? {
        do {
            _ = try await fetcher.fetch()
            Issue.record("expected the fetch to fail", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(!error.description.contains(token), sourceLocation: sourceLocation)
            #expect(error.exitStatus == .unavailable, sourceLocation: sourceLocation)
            return error
        }
    }

    /// `failure(fetcher)`, or nil and an issue when the fetch has not ended within `limit`: a fetch
    /// that hangs fails the test instead of stalling the suite (the hung task is left behind).
    package static func failure(_ fetcher: Fetcher, within limit: Duration, sourceLocation: SourceLocation = #_sourceLocation) async -> SourceError? {
        let outcome: SourceError?? = await withCheckedContinuation { continuation in
            let once = Once(continuation)
            Task { once.resume(.some(await failure(fetcher, sourceLocation: sourceLocation))) }
            Task {
                try? await Task.sleep(for: limit)
                once.resume(.none)
            }
        }
        guard let outcome else {
            Issue.record("the fetch did not end within \(limit)", sourceLocation: sourceLocation)
            return nil
        }
        return outcome
    }

    /// Resumes a continuation with the first value given, ignoring the rest.
    package final class Once<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Value, Never>?

        package init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = continuation }

        package func resume(_ value: Value) {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: value)
        }
    }

    /// The output of `gzip -9` run on the output of `/bin/sh -c input`, for compressed bodies (a gzip bomb
    /// among them) without holding the inflated bytes in the test. On a thread of its own, since it can
    /// take seconds and the concurrency pool has as few threads as the machine has cores.
    package static func gzip(_ input: String) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.arguments = ["-c", "(\(input)) | gzip -9 -c"]
                    let out = Pipe()
                    process.standardOutput = out
                    try process.run()
                    let data = out.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return data
                })
            }
        }
    }
}
