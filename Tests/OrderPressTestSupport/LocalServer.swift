import FlyingFox
import FlyingSocks
import Foundation

/// A real HTTP server on 127.0.0.1 (an ephemeral port) standing in for SheetDB or a rates feed.
/// It records every request and answers through `respond`, which sees each request and its number
/// (0 for the first one the server received).
package final class LocalServer: Sendable {
    /// A request as the server saw it.
    package struct Request: Sendable, Equatable {
        package var path: String
        package var query: [String: String]
        package var authorization: String?
        /// The request's body (a webhook's POST); empty for a GET.
        package var body = Data()

        package init(path: String, query: [String: String], authorization: String? = nil, body: Data = Data()) {
            self.path = path
            self.query = query
            self.authorization = authorization
            self.body = body
        }
    }

    package typealias Responder = @Sendable (_ request: Request, _ number: Int) async -> HTTPResponse

    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let log: RequestLog
    package let port: UInt16

    /// Starts a server, runs `body`, and stops the server whatever happens.
    package static func with<T>(_ respond: @escaping Responder, _ body: (LocalServer) async throws -> T) async throws -> T {
        let server = try await LocalServer(respond)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private init(_ respond: @escaping Responder) async throws {
        let log = RequestLog()
        server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 5, logger: .disabled,
            handler: Handler(log: log, respond: respond))
        let server = server
        task = Task { try await server.run() }
        self.log = log
        try await server.waitUntilListening(timeout: TestSupport.listeningCeiling)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw URLError(.cannotConnectToHost) }
        self.port = port
    }

    package func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }

    /// `http://127.0.0.1:PORT` + `pathAndQuery`.
    package func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }
    /// How messages name the server (`SourceDescription`): its host and port, never the path or query.
    package var host: String { "127.0.0.1:\(port)" }

    package var requests: [Request] {
        get async { await log.requests }
    }

    private struct Handler: HTTPHandler {
        let log: RequestLog
        let respond: Responder

        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
            let seen = Request(
                path: request.path,
                query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                authorization: request.headers[.authorization], body: try await request.bodyData)
            return await respond(seen, await log.append(seen))
        }
    }

    private actor RequestLog {
        var requests: [Request] = []

        func append(_ request: Request) -> Int {
            requests.append(request)
            return requests.count - 1
        }
    }
}

/// Canned answers for `LocalServer`.
package enum Reply {
    package static func text(_ body: String, status: Int = 200, type: String = "application/json", headers: [String: String] = [:]) -> HTTPResponse {
        var fields = HTTPHeaders()
        fields[.contentType] = type
        for (name, value) in headers { fields[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status \(status)"), headers: fields, body: Data(body.utf8))
    }

    package static func status(_ status: Int, headers: [String: String] = [:]) -> HTTPResponse {
        text("{\"error\": \"status \(status)\"}", status: status, headers: headers)
    }

    /// One page of `rows` as SheetDB gives it: `limit` and `offset` from the query, all rows without them.
    package static func page(of rows: [Any], for request: LocalServer.Request) -> HTTPResponse {
        let offset = request.query["offset"].flatMap(Int.init) ?? 0
        let limit = request.query["limit"].flatMap(Int.init) ?? rows.count
        let slice = Array(rows.dropFirst(offset).prefix(limit))
        let data = try! JSONSerialization.data(withJSONObject: slice, options: [.sortedKeys])
        return text(String(decoding: data, as: UTF8.self))
    }

    /// Never answers within any test's timeout; stopping the server ends the wait.
    package static func hang() async -> HTTPResponse {
        try? await Task.sleep(for: .seconds(20))
        return status(200)
    }
}
