import FlyingFox
import FlyingSocks
import Foundation

/// A TCP server on 127.0.0.1 that speaks broken HTTP on purpose: after reading a request head it runs
/// `script` on the connection, which writes whatever bytes it likes, as slowly as it likes (endless
/// headers, a body that drips for ever, a lying `Content-Length`). `LocalServer` cannot, since
/// FlyingFox only writes well-formed responses. Stopping the server cancels every script.
package final class RawServer: Sendable {
    package typealias Script = @Sendable (_ connection: AsyncSocket) async throws -> Void

    private let listener: Task<Void, Never>
    private let poller: Task<Void, any Error>
    package let port: UInt16

    /// Starts a server, runs `body`, and stops the server whatever happens.
    package static func with<T>(_ script: @escaping Script, _ body: (RawServer) async throws -> T) async throws -> T {
        let server = try await RawServer(script)
        defer { server.stop() }
        return try await body(server)
    }

    private init(_ script: @escaping Script) async throws {
        let socket = try Socket(domain: AF_INET, type: .stream)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: .inet(ip4: "127.0.0.1", port: 0))
        try socket.listen()
        guard case .ip4(_, let port) = try socket.sockname() else { throw URLError(.cannotConnectToHost) }
        self.port = port
        let pool = HTTPServer.defaultPool()
        try await pool.prepare()
        poller = Task { try await pool.run() }
        let listening = try AsyncSocket(socket: socket, pool: pool)
        listener = Task {
            await withTaskGroup(of: Void.self) { group in
                do {
                    for try await connection in listening.sockets {
                        group.addTask {
                            do {
                                try await Self.readRequestHead(connection)
                                try await script(connection)
                            } catch {}
                            try? connection.close()
                        }
                    }
                } catch {}
                group.cancelAll()
            }
            try? listening.close()
        }
    }

    package func stop() {
        listener.cancel()
        poller.cancel()
    }

    /// `http://127.0.0.1:PORT` + `pathAndQuery`.
    package func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }
    /// How messages name the server (`SourceDescription`): its host and port, never the path or query.
    package var host: String { "127.0.0.1:\(port)" }

    private static func readRequestHead(_ connection: AsyncSocket) async throws {
        var tail: [UInt8] = []
        while tail != Array("\r\n\r\n".utf8) {
            tail.append(try await connection.read())
            if tail.count > 4 { tail.removeFirst() }
        }
    }
}

/// Scripts for `RawServer`.
package enum RawReply {
    package static func write(_ text: String, to connection: AsyncSocket) async throws {
        try await connection.write(Data(text.utf8))
    }

    /// A 200 whose chunked body sends `chunk` every `interval`, for ever.
    package static func drip(_ chunk: String = " ", every interval: Duration) -> RawServer.Script {
        { connection in
            try await write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", to: connection)
            try await write("1\r\n[\r\n", to: connection)
            while true {
                try await write("\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n", to: connection)
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Reads the request, then says nothing at all.
    package static let silence: RawServer.Script = { _ in
        while true { try await Task.sleep(for: .seconds(1)) }
    }

    /// A status line, then header lines for ever.
    package static let endlessHeaders: RawServer.Script = { connection in
        try await write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n", to: connection)
        let line = "X-Padding: " + String(repeating: "a", count: 1000) + "\r\n"
        while true {
            try await write(line, to: connection)
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// A 200 with `Content-Length: declared` and then `body`, and the connection closed.
    package static func length(_ declared: Int, body: String) -> RawServer.Script {
        { connection in
            try await write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\nConnection: close\r\n\r\n\(body)", to: connection)
        }
    }
}
