import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's URLSession: no cookies, no HTTP cache (every run asks the source).
///
/// Wrapped because URLSession alone is not bounded against a hostile or broken server:
/// - it follows redirects itself and copies `Authorization` onto every hop, whatever the host; so
///   redirects are refused here and handed back as answers, and `Downloader` decides per hop whether
///   the token goes;
/// - its timeout only bounds the gaps between packets (a server dripping a byte a second never trips
///   it), and on Linux an awaited `data(for:)` may ignore task cancellation; so the deadline here
///   resumes the caller itself, then cancels the URLSessionTask;
/// - it keeps a whole body in memory however far it inflates (3 MB of gzip became 6.4 GB); so the
///   bytes are counted as they arrive, after decompression, the task is cancelled past the limit and
///   whatever still arrives is dropped (on Linux a cancel waits until curl has inflated what the socket
///   holds: measured on a debug build, a 1 GB bomb peaks at 300 MB resident and ends in 2.5 s).
final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// The largest body accepted, decompressed.
    static let maxBodyBytes = 256 << 20

    private let exchanges: Exchanges
    /// Made on the first request, not with the transport: every build makes one, and most read only
    /// local files. Making a session sets up Foundation's cookie storage, which finds the main bundle by
    /// listing the folder that holds the executable: tens of milliseconds of a build's start.
    private var made: URLSession?
    private let making = NSLock()

    init(maxBodyBytes: Int = URLSessionTransport.maxBodyBytes) {
        exchanges = Exchanges(maxBodyBytes: maxBodyBytes)
    }

    /// Whether a session was made (for tests: reading local files makes none).
    var hasSession: Bool { making.withLock { made != nil } }

    private var session: URLSession {
        making.withLock {
            if let made { return made }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            let session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
            made = session
            return session
        }
    }

    deinit {
        // Not here and now: on Linux it waits for the session's queue, which a transfer being cancelled
        // (a gzip bomb still inflating) can keep busy for seconds, and the run's exit with it.
        guard let session = made else { return }
        DispatchQueue.global().async { session.invalidateAndCancel() }
    }

    func get(_ url: URL, headers: [String: String], timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        try await send("GET", url, headers: headers, body: nil, timeout: timeout)
    }

    /// `POST url` with `body`, bounded like `get` (a redirect is the answer, never followed); for the webhook.
    func post(_ url: URL, headers: [String: String], body: Data, timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        try await send("POST", url, headers: headers, body: body, timeout: timeout)
    }

    private func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        let exchange = exchanges.open(task)
        defer { exchanges.close(task) }
        let stop = { @Sendable in
            exchange.finish(.failure(.timedOut))
            task.cancel()
        }
        // A Dispatch timer, not a sleeping Task: it fires even while the concurrency pool is busy.
        let deadline = DispatchWorkItem(block: stop)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: deadline)
        defer { deadline.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.wait(continuation)
                task.resume()
            }
        } onCancel: {
            stop()
        }
        return try result.get()
    }

    /// One request in flight: the body so far, and the caller to resume exactly once.
    fileprivate final class Exchange: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<HTTPReply, HTTPFailure>, Never>?
        private var outcome: Result<HTTPReply, HTTPFailure>?
        private(set) var response: HTTPURLResponse?
        /// The body as it came, joined once complete: growing one `Data` would copy it again and again,
        /// twice the limit in memory at the worst moment.
        private var chunks: [Data] = []
        private var size = 0
        let limit: Int

        init(limit: Int) { self.limit = limit }

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
            chunks = []
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: result)
        }

        /// False once the body is over the limit (the exchange is then finished).
        func receive(_ response: URLResponse) -> Bool {
            let http = response as? HTTPURLResponse
            lock.lock()
            self.response = http
            lock.unlock()
            // A declared length over the limit need not be downloaded to be refused.
            guard response.expectedContentLength <= Int64(limit) else {
                finish(.failure(.tooLarge(limit: limit)))
                return false
            }
            return true
        }

        enum Progress {
            case more
            /// Over the limit just now: cancel the task.
            case stop
            /// Finished already (timed out, or stopped): nothing more to do.
            case over
        }

        func append(_ data: Data) -> Progress {
            lock.lock()
            guard outcome == nil else {
                lock.unlock()
                return .over
            }
            guard size + data.count <= limit else {
                lock.unlock()
                finish(.failure(.tooLarge(limit: limit)))
                return .stop
            }
            chunks.append(data)
            size += data.count
            lock.unlock()
            return .more
        }

        func complete(_ error: (any Error)?) {
            lock.lock()
            let response = response
            var body = Data(capacity: size)
            for chunk in chunks { body.append(chunk) }
            lock.unlock()
            if let error {
                finish(.failure((error as? URLError).map(URLSessionTransport.failure) ?? .unreachable(reason: "network error")))
            } else if let response {
                finish(.success(HTTPReply(
                    status: response.statusCode,
                    retryAfter: HTTPReply.retryAfter(URLSessionTransport.header("Retry-After", of: response)),
                    location: URLSessionTransport.header("Location", of: response), body: body)))
            } else {
                finish(.failure(.unreachable(reason: "malformed HTTP response")))
            }
        }
    }

    /// The session's delegate: routes each task's events to its exchange.
    private final class Exchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var running: [Int: Exchange] = [:]
        private let maxBodyBytes: Int

        init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

        func open(_ task: URLSessionTask) -> Exchange {
            let exchange = Exchange(limit: maxBodyBytes)
            lock.lock()
            running[task.taskIdentifier] = exchange
            lock.unlock()
            return exchange
        }

        func close(_ task: URLSessionTask) {
            lock.lock()
            running[task.taskIdentifier] = nil
            lock.unlock()
        }

        private func exchange(_ task: URLSessionTask) -> Exchange? {
            lock.lock()
            defer { lock.unlock() }
            return running[task.taskIdentifier]
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            // Never follow: the redirect itself is the answer (see the type's comment).
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let exchange = exchange(dataTask), exchange.receive(response) else {
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            // Cancelled once: each cancel waits for the session's queue, and curl may have inflated
            // many more chunks that are still queued for this delegate.
            if exchange(dataTask)?.append(data) == .stop { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            exchange(task)?.complete(error)
        }
    }

    fileprivate static func header(_ name: String, of response: HTTPURLResponse) -> String? {
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, key.caseInsensitiveCompare(name) == .orderedSame { return value as? String }
        }
        return nil
    }

    /// A few words for the error, never its description (which can carry the URL).
    fileprivate static func failure(_ error: URLError) -> HTTPFailure {
        switch error.code {
        case .timedOut, .cancelled: return .timedOut
        case .cannotConnectToHost: return .unreachable(reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable(reason: "host not found")
        case .networkConnectionLost: return .unreachable(reason: "connection lost")
        case .notConnectedToInternet: return .unreachable(reason: "no network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .unreachable(reason: "TLS handshake failed")
        // On Linux a body cut short of its Content-Length, or headers past curl's limit, come as `.unknown`.
        case .badServerResponse, .cannotParseResponse, .unknown: return .unreachable(reason: "malformed HTTP response")
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .badRedirect(tooMany: error.code == .httpTooManyRedirects)
        default: return .unreachable(reason: "network error \(error.code.rawValue)")
        }
    }
}
