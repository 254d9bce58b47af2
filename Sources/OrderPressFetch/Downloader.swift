import Foundation
import OrderPressConfig

/// GETs one URL for a source: bearer token, per-request timeout, retries on what may pass.
/// Every final failure becomes one `SourceError` line naming the source, the status and what to do;
/// neither the token nor a secret query value ever reaches it.
package struct Downloader: Sendable {
    package var transport: any HTTPTransport
    var policy: RetryPolicy

    /// Redirect hops followed per request. A SheetDB API needs none; browsers stop at 20, and a loop
    /// is best reported quickly.
    static let maxRedirects = 10

    /// The time the whole fetch of `source` from `url` may take.
    package func deadline(for source: Configuration.SourceSettings, url: URL) -> FetchDeadline {
        FetchDeadline(source, url: url, timeouts: policy.timeoutsPerSource)
    }

    /// The body of a 2xx answer. `requests` grows by every request sent, retries and redirects included
    /// (a SheetDB plan counts them all). `hint`, when it has one for a failing answer, says what to do
    /// instead of the SheetDB-minded default.
    package func get(
        _ url: URL, for source: Configuration.SourceSettings, token: String?, notFoundHint: String,
        deadline: FetchDeadline, requests: inout Int, hint: (@Sendable (HTTPReply) -> String?)? = nil
    ) async throws(SourceError) -> Data {
        let timeout = Duration.seconds(source.timeoutSeconds)
        var spent = Duration.zero
        var attempt = 0
        while true {
            attempt += 1
            let started = ContinuousClock.now
            guard case .done(let outcome) = await follow(url, token: token, timeout: timeout, deadline: deadline, requests: &requests)
            else { throw deadline.error }
            spent += ContinuousClock.now - started
            var retryAfter: Duration?
            switch outcome {
            case .success(let reply):
                if reply.succeeded { return reply.body }
                guard reply.isTransient else { throw failure(outcome, url, source, attempt, notFoundHint, hint) }
                retryAfter = reply.retryAfter
            case .failure(let failure):
                if deadline.passed { throw deadline.error }
                guard failure.isTransient else { throw self.failure(outcome, url, source, attempt, notFoundHint, hint) }
            }
            guard let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, spent: spent, timeout: timeout),
                delay < deadline.remaining
            else {
                throw failure(outcome, url, source, attempt, notFoundHint, hint)
            }
            await policy.sleep(delay)
            spent += delay
        }
    }

    /// One answer to `POST url` with a form body, retried like a GET on what may pass; no redirect is
    /// followed (a token endpoint has no reason to send one, and the body holds a signed assertion).
    func post(
        _ url: URL, form: Data, timeout: Duration, deadline: FetchDeadline, requests: inout Int
    ) async -> Attempt {
        let headers = ["User-Agent": "orderpress", "Content-Type": "application/x-www-form-urlencoded"]
        var spent = Duration.zero
        var attempt = 0
        while true {
            attempt += 1
            let started = ContinuousClock.now
            guard case .done(let outcome) = await send(timeout: timeout, deadline: deadline, requests: &requests, { wait throws(HTTPFailure) in
                try await transport.post(url, headers: headers, body: form, timeout: wait)
            })
            else { return .outOfTime }
            spent += ContinuousClock.now - started
            var retryAfter: Duration?
            switch outcome {
            case .success(let reply):
                guard reply.isTransient else { return .done(outcome) }
                retryAfter = reply.retryAfter
            case .failure(let failure):
                if deadline.passed { return .outOfTime }
                guard failure.isTransient else { return .done(outcome) }
            }
            guard let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, spent: spent, timeout: timeout),
                delay < deadline.remaining
            else { return .done(outcome) }
            await policy.sleep(delay)
            spent += delay
        }
    }

    /// One answer for `url`, following redirects here rather than in URLSession (which copies every
    /// header onto every hop): the token goes only to hops on the configured URL's origin.
    private func follow(
        _ url: URL, token: String?, timeout: Duration, deadline: FetchDeadline, requests: inout Int
    ) async -> Attempt {
        let origin = Origin(url)
        var current = url
        for _ in 0...Self.maxRedirects {
            var headers = ["User-Agent": "orderpress"]
            if let token, Origin(current) == origin { headers["Authorization"] = "Bearer \(token)" }
            let hop = current
            let reply: HTTPReply
            switch await send(timeout: timeout, deadline: deadline, requests: &requests, { wait throws(HTTPFailure) in
                try await transport.get(hop, headers: headers, timeout: wait)
            }) {
            case .outOfTime: return .outOfTime
            case .done(.failure(let failure)): return .done(.failure(failure))
            case .done(.success(let answer)): reply = answer
            }
            guard reply.isRedirect, let location = reply.location else { return .done(.success(reply)) }
            // URLSession on Linux refuses an upper-case scheme, which a Location may well have.
            guard var next = URL(string: location, relativeTo: current).flatMap({ URLComponents(url: $0.absoluteURL, resolvingAgainstBaseURL: false) }),
                Origin.isWeb(next)
            else {
                return .done(.failure(.badRedirect(tooMany: false)))
            }
            next.scheme = next.scheme?.lowercased()
            guard let url = next.url else { return .done(.failure(.badRedirect(tooMany: false))) }
            current = url
        }
        return .done(.failure(.badRedirect(tooMany: true)))
    }

    /// One request, its wait the request's timeout or what is left of the source's deadline if less.
    private func send(
        timeout: Duration, deadline: FetchDeadline, requests: inout Int,
        _ request: (Duration) async throws(HTTPFailure) -> HTTPReply
    ) async -> Attempt {
        let wait = min(timeout, deadline.remaining)
        guard wait > .zero else { return .outOfTime }
        requests += 1
        do {
            return .done(.success(try await request(wait)))
        } catch {
            // A request whose wait the deadline shortened and that timed out ran into the deadline: the
            // transport's timer may fire a moment before `deadline.passed` holds.
            if error == .timedOut, wait < timeout || deadline.passed { return .outOfTime }
            return .done(.failure(error))
        }
    }

    /// What a request (following redirects or not) came to: the last answer or failure, or the source's
    /// deadline reached on the way (reported as the deadline, not as one request's timeout).
    enum Attempt {
        case done(Result<HTTPReply, HTTPFailure>)
        case outOfTime
    }

    /// Scheme, host and port, default ports made explicit: where a token may go.
    struct Origin: Equatable {
        var scheme: String?
        var host: String?
        var port: Int?

        init(_ url: URL) {
            self.init(URLComponents(url: url, resolvingAgainstBaseURL: true))
        }

        init(_ components: URLComponents?) {
            scheme = components?.scheme?.lowercased()
            host = components?.host?.lowercased()
            port = components?.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }

        static func isWeb(_ components: URLComponents) -> Bool {
            let origin = Origin(components)
            return (origin.scheme == "http" || origin.scheme == "https") && !(origin.host ?? "").isEmpty
        }
    }

    private func failure(
        _ outcome: Result<HTTPReply, HTTPFailure>, _ url: URL, _ source: Configuration.SourceSettings, _ attempts: Int,
        _ notFoundHint: String, _ custom: (@Sendable (HTTPReply) -> String?)? = nil
    ) -> SourceError {
        let address = SourceDescription(url)
        // How many attempts it took is left out: it depends on the retries' jitter, and the message reaches
        // pages (a failing rates feed's warning), which must not change with it.
        let message: String
        switch outcome {
        case .success(let reply):
            let phrase = Self.phrases[reply.status].map { " \($0)" } ?? ""
            message = "\(address) answered HTTP \(reply.status)\(phrase); \(custom?(reply) ?? hint(reply.status, source, notFoundHint))"
        case .failure(.timedOut):
            message = "\(address) did not answer within \(source.timeoutSeconds) s; check the address, or raise \(source.name).timeout_seconds"
        case .failure(.unreachable(let reason)):
            message = "cannot reach \(address) (\(reason)); check the network and [\(source.name)] url"
        case .failure(.tooLarge(let limit)):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            message = "\(address) sent more than \(size) (decompressed); check [\(source.name)] url"
        case .failure(.badRedirect(let tooMany)):
            let problem = tooMany ? "redirected more than \(Self.maxRedirects) times" : "redirected to an address that is not http or https"
            message = "\(address) \(problem); check [\(source.name)] url"
        }
        return SourceError(source: source.name, message: message)
    }

    private func hint(_ status: Int, _ source: Configuration.SourceSettings, _ notFoundHint: String) -> String {
        switch status {
        case 401, 403:
            if let variable = source.tokenEnvironmentVariable { return "check the token in $\(variable)" }
            return "the API wants a token: set \(source.name).token_env to the name of a variable that holds it"
        case 402: return "the plan's request quota is used up; wait for it to renew, upgrade the plan, or raise refresh_minutes"
        case 429: return "the plan's request quota or rate limit is exhausted; wait, or raise refresh_minutes to spend fewer requests"
        case 404: return notFoundHint
        case 500..<600: return "the service is failing; try again later"
        default: return "check [\(source.name)] url"
        }
    }

    private static let phrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        408: "Request Timeout", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]
}
