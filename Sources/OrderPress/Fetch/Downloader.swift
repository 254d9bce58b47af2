import Foundation

/// GETs one URL for a source: bearer token, per-request timeout, retries on what may pass.
/// Every final failure becomes one `SourceError` line naming the source, the status and what to do;
/// neither the token nor a secret query value ever reaches it.
struct Downloader: Sendable {
    var transport: any HTTPTransport
    var policy: RetryPolicy

    /// The body of a 2xx answer. `requests` grows by every request sent, retries included
    /// (a SheetDB plan counts them all).
    func get(
        _ url: URL, for source: Configuration.SourceSettings, token: String?, notFoundHint: String, requests: inout Int
    ) async throws(SourceError) -> Data {
        let timeout = Duration.seconds(source.timeoutSeconds)
        var headers = ["User-Agent": "orderpress"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        var spent = Duration.zero
        var attempt = 0
        while true {
            attempt += 1
            requests += 1
            let started = ContinuousClock.now
            let outcome: Result<HTTPReply, HTTPFailure>
            do {
                outcome = .success(try await transport.get(url, headers: headers, timeout: timeout))
            } catch {
                outcome = .failure(error)
            }
            spent += ContinuousClock.now - started
            var retryAfter: Duration?
            if case .success(let reply) = outcome {
                if reply.succeeded { return reply.body }
                guard reply.isTransient else { throw failure(outcome, url, source, attempt, notFoundHint) }
                retryAfter = reply.retryAfter
            }
            guard let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, spent: spent, timeout: timeout) else {
                throw failure(outcome, url, source, attempt, notFoundHint)
            }
            await policy.sleep(delay)
            spent += delay
        }
    }

    private func failure(
        _ outcome: Result<HTTPReply, HTTPFailure>, _ url: URL, _ source: Configuration.SourceSettings, _ attempts: Int,
        _ notFoundHint: String
    ) -> SourceError {
        let address = URLText.display(url)
        let tries = attempts > 1 ? " (\(attempts) attempts)" : ""
        let message: String
        switch outcome {
        case .success(let reply):
            let phrase = Self.phrases[reply.status].map { " \($0)" } ?? ""
            message = "\(address) answered HTTP \(reply.status)\(phrase)\(tries); \(hint(reply.status, source, notFoundHint))"
        case .failure(.timedOut):
            message = "\(address) did not answer within \(source.timeoutSeconds) s\(tries); check the address, or raise \(source.name).timeout_seconds"
        case .failure(.unreachable(let reason)):
            let detail = attempts > 1 ? "\(reason), \(attempts) attempts" : reason
            message = "cannot reach \(address) (\(detail)); check the network and [\(source.name)] url"
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
