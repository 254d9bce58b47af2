import CHTTPRequest
import Foundation
import OrderPressSupport

/// `HTTPTransport` over libcurl's easy interface (the library URLSession itself runs on, on Linux),
/// each exchange run to its end on a thread of its own. The name stays from when URLSession carried
/// the requests; it no longer does, because on Linux it cannot wait quietly: swift-corelibs-foundation
/// (`_MultiHandle`/`_SocketSources`) keeps the socket's write-readiness source once curl has sent the
/// request and asks only to read, so a server that accepts and never answers had the process spinning
/// on an always-writable socket, a core busy for the whole timeout. `curl_easy_perform` waits in
/// `poll` and costs nothing while nothing arrives (`HungServerTests`).
///
/// Bounded against a hostile or broken server:
/// - redirects are never followed: they come back as answers, and `Downloader` decides per hop whether
///   the token goes;
/// - the timeout bounds the whole exchange (curl's `CURLOPT_TIMEOUT_MS`), not only the gaps between
///   packets, and the deadline here resumes the caller itself, then cancels the transfer;
/// - the body is counted as it arrives, after decompression, and the transfer stopped past the limit
///   (a declared length over it is refused before any of the body is read).
package final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// The largest body accepted, decompressed: the bound of a local file read whole.
    package static let maxBodyBytes = BoundedFile.maxBytes

    private let maxBodyBytes: Int
    private var sent = false
    private let lock = NSLock()

    package init(maxBodyBytes: Int = URLSessionTransport.maxBodyBytes) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether a request was sent (for tests: reading local files sends none and sets nothing up).
    var hasSession: Bool { lock.withLock { sent } }

    package func get(_ url: URL, headers: [String: String], timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        try await send("GET", url, headers: headers, body: nil, timeout: timeout)
    }

    /// `POST url` with `body`, bounded like `get` (a redirect is the answer, never followed); for the webhook.
    package func post(_ url: URL, headers: [String: String], body: Data, timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        try await send("POST", url, headers: headers, body: body, timeout: timeout)
    }

    private func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        lock.withLock { sent = true }
        let milliseconds = max(1, Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000))
        let exchange = Exchange()
        let limit = maxBodyBytes
        let lines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let stop = { @Sendable in
            exchange.finish(.failure(.timedOut))
            exchange.cancel()
        }
        // A Dispatch timer, not a sleeping Task: it fires even while the concurrency pool is busy. A little
        // after curl's own timeout, for a transfer that does not return in time (a bomb still inflating).
        let deadline = DispatchWorkItem(block: stop)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds + 250), execute: deadline)
        defer { deadline.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.wait(continuation)
                // Its own thread: the exchange blocks in poll, which must not hold a cooperative thread.
                Thread.detachNewThread {
                    exchange.finish(exchange.perform(method, url.absoluteString, lines, body, milliseconds: milliseconds, limit: limit))
                }
            }
        } onCancel: {
            stop()
        }
        return try result.get()
    }

    /// One request in flight: the curl handle, and the caller to resume exactly once.
    private final class Exchange: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<HTTPReply, HTTPFailure>, Never>?
        private var outcome: Result<HTTPReply, HTTPFailure>?
        private let request: OpaquePointer

        init() {
            request = http_request_new()!
        }

        deinit { http_request_free(request) }

        func wait(_ continuation: CheckedContinuation<Result<HTTPReply, HTTPFailure>, Never>) {
            lock.lock()
            if let outcome {
                lock.unlock()
                continuation.resume(returning: outcome)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }

        /// The first outcome wins; later ones (a completion after a timeout) are dropped.
        func finish(_ result: Result<HTTPReply, HTTPFailure>) {
            lock.lock()
            guard outcome == nil else { return lock.unlock() }
            outcome = result
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: result)
        }

        func cancel() { http_request_cancel(request) }

        /// Runs the exchange to its end on the calling thread.
        func perform(_ method: String, _ url: String, _ headers: [String], _ body: Data?, milliseconds: Int, limit: Int) -> Result<HTTPReply, HTTPFailure> {
            let cHeaders = headers.map { strdup($0) }
            defer { cHeaders.forEach { free($0) } }
            let code = cHeaders.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
                if let body {
                    return body.withUnsafeBytes {
                        // An empty body is still a body: a POST must not turn into a GET.
                        http_request_perform(request, url, method, list.baseAddress, list.count, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), $0.count, milliseconds, limit)
                    }
                }
                return http_request_perform(request, url, method, list.baseAddress, list.count, nil, 0, milliseconds, limit)
            }
            if http_request_too_large(request) != 0 { return .failure(.tooLarge(limit: limit)) }
            guard code == 0 else { return .failure(URLSessionTransport.failure(code, errno: Int32(http_request_os_error(request)))) }
            var size = 0
            let taken = http_request_take_body(request, &size)
            let data = taken.map { Data(bytesNoCopy: $0, count: size, deallocator: .free) } ?? Data()
            return .success(HTTPReply(
                status: http_request_status(request),
                retryAfter: HTTPReply.retryAfter(http_request_retry_after(request).map { String(cString: $0) }),
                location: http_request_location(request).map { String(cString: $0) }, body: data))
        }
    }

    /// A few words for the error from curl's result code, never curl's message (which can carry the URL).
    fileprivate static func failure(_ code: Int32, errno: Int32) -> HTTPFailure {
        switch code {
        // 28 timed out; 42 stopped by the deadline or a cancelled task.
        case 28, 42: return .timedOut
        case 7: return .unreachable(reason: errno == ECONNREFUSED || errno == 0 ? "connection refused" : "cannot connect")
        case 5, 6: return .unreachable(reason: "host not found")
        // A reset is a lost connection; else curl gave up on the answer itself (headers past its limit).
        case 55, 56: return .unreachable(reason: errno == ECONNRESET ? "connection lost" : "malformed HTTP response")
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91: return .unreachable(reason: "TLS handshake failed")
        // Nothing, a garbled head, a body cut short of its length, a body that does not decode.
        case 8, 18, 52, 61, 92, 100: return .unreachable(reason: "malformed HTTP response")
        case 63: return .tooLarge(limit: URLSessionTransport.maxBodyBytes)
        default: return .unreachable(reason: "network error \(code)")
        }
    }
}
