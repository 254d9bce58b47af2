import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's URLSession: no cookies, no HTTP cache (every run asks the source).
struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    func get(_ url: URL, headers: [String: String], timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = session
        let prepared = request
        do {
            // URLSession's timeout only bounds the gaps between packets; the race bounds the whole exchange.
            return try await withThrowingTaskGroup(of: HTTPReply?.self) { group in
                group.addTask {
                    let (data, response) = try await session.data(for: prepared)
                    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
                    return HTTPReply(status: http.statusCode, retryAfter: HTTPReply.retryAfter(Self.header("Retry-After", of: http)), body: data)
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let reply = first else { throw HTTPFailure.timedOut }
                return reply
            }
        } catch let failure as HTTPFailure {
            throw failure
        } catch let error as URLError {
            throw Self.failure(error)
        } catch {
            throw .unreachable(reason: "network error")
        }
    }

    private static func header(_ name: String, of response: HTTPURLResponse) -> String? {
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, key.caseInsensitiveCompare(name) == .orderedSame { return value as? String }
        }
        return nil
    }

    /// A few words for the error, never its description (which can carry the URL).
    private static func failure(_ error: URLError) -> HTTPFailure {
        switch error.code {
        case .timedOut, .cancelled: return .timedOut
        case .cannotConnectToHost: return .unreachable(reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable(reason: "host not found")
        case .networkConnectionLost: return .unreachable(reason: "connection lost")
        case .notConnectedToInternet: return .unreachable(reason: "no network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .unreachable(reason: "TLS handshake failed")
        case .badServerResponse, .cannotParseResponse: return .unreachable(reason: "malformed HTTP response")
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .unreachable(reason: "bad redirect")
        default: return .unreachable(reason: "network error \(error.code.rawValue)")
        }
    }
}
