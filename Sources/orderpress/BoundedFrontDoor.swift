import FlyingSocks
import Foundation
import OrderPressServe

/// `orderpress serve`'s listening socket on 127.0.0.1, in front of FlyingFox: it reads each request's
/// head itself, within `RequestHead`'s bounds and a deadline, and only then passes the request line on
/// to FlyingFox, which listens on a Unix socket in a private folder (`PrivateSocketFolder`), one request
/// per connection. Over-long heads are answered 414 or 431 here and never reach FlyingFox, and the
/// header fields never do (the site answers from the method and the path alone).
///
/// Why FlyingFox is not given the port itself: its request parser (0.27.1, `HTTPDecoder.readHeaders`
/// → `AsyncSequence.lines` → `CollectUntil`) tests for the end of a line after every byte with
/// `buffer.suffix(1) == [0x0A]`, which resolves to `Sequence.suffix` — a walk over the whole line so
/// far — so a line of n bytes costs O(n²), with no limit on n and no cancellation check. A 1 MB header
/// line kept a core busy long after its client left, and three of them starved Swift's cooperative
/// threads, so that no other client was answered and SIGTERM went unheard. FlyingFox has no setting
/// for the size of a head (`sharedRequestBufferSize` concerns bodies), hence this layer; what FlyingFox
/// still parses is one request line of at most 4 KiB. Worth removing once FlyingFox bounds its heads.
struct BoundedFrontDoor: Sendable {
    /// A client must send its whole head within this.
    static let headDeadline: Duration = .seconds(10)
    /// Everything about one connection, the response included, ends within this.
    static let connectionDeadline: Duration = .seconds(60)
    /// Connections at once (file descriptors stay available). When all are taken, a new connection
    /// closes the oldest one still sending its head rather than being refused itself: otherwise 256
    /// clients that connect and send nothing lock every real client out for the head deadline, again
    /// and again. A real client sends its head at once, so it is never the oldest for long.
    static let maxConnections = 256

    let listener: AsyncSocket
    let port: UInt16
    private let backend: sockaddr_un
    private let pool: any AsyncSocketPool
    private let open = ConnectionTable()

    /// Listens on 127.0.0.1:`port` (0: a free port) at once, so that a port in use is known before
    /// anything runs.
    init(port: UInt16, backend: sockaddr_un) throws {
        let pool = SocketPool.make()
        let socket = try Socket(domain: AF_INET, type: .stream)
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
            try socket.listen()
            guard case .ip4(_, let bound) = try socket.sockname() else { throw SocketError.unsupportedAddress }
            self.port = bound
            listener = try AsyncSocket(socket: socket, pool: pool)
        } catch {
            try? socket.close()
            throw error
        }
        self.backend = backend
        self.pool = pool
    }

    /// Accepts connections until cancelled.
    func run() async throws {
        try await pool.prepare()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run() }
            group.addTask {
                for try await client in listener.sockets {
                    guard let number = open.enter(client.socket.file.rawValue, below: Self.maxConnections) else {
                        try? client.close()
                        continue
                    }
                    // Not a child task: a task group keeps each finished child until it is awaited.
                    // Each connection ends within `connectionDeadline`, and the process when serving stops.
                    Task { await serve(client, number: number) }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private struct TimedOut: Error {}

    private func serve(_ client: AsyncSocket, number: Int) async {
        defer {
            // Not closed while the table may still shut it down: the number could be another file's by then.
            open.leave(number)
            try? client.close()
        }
        do {
            try await Self.within(Self.connectionDeadline) {
                let outcome: RequestHead.Outcome
                do {
                    outcome = try await Self.within(Self.headDeadline) { try await Self.readHead(client) }
                } catch is TimedOut {
                    return try await Self.refuse(client, status: "408 Request Timeout", "the request was not sent in time")
                }
                switch outcome {
                case .complete(let forwarded):
                    open.started(number)
                    try await pass(forwarded, from: client)
                case .requestLineTooLong:
                    try await Self.refuse(client, status: "414 URI Too Long", "request line longer than \(RequestHead.maxRequestLineBytes) bytes")
                case .headTooLarge:
                    try await Self.refuse(
                        client, status: "431 Request Header Fields Too Large", "request head longer than \(RequestHead.maxHeadBytes) bytes")
                case .needMore:
                    break
                }
            }
        } catch {
            // The client left, or the deadline passed: the connection is closed either way.
        }
    }

    private static func readHead(_ client: AsyncSocket) async throws -> RequestHead.Outcome {
        var head = RequestHead()
        while true {
            let outcome = head.append(try await client.read(atMost: 4096))
            if outcome != .needMore { return outcome }
        }
    }

    /// Sends the head to FlyingFox and its answer back, adding `Connection: close` to it: the client
    /// learns that the connection ends with this response.
    private func pass(_ head: [UInt8], from client: AsyncSocket) async throws {
        let server = try await AsyncSocket.connected(to: backend, pool: pool, timeout: 5)
        defer { try? server.close() }
        try await server.write(Data(head))
        var pending: [UInt8] = []
        var statusLineSeen = false
        while true {
            let chunk: [UInt8]
            do {
                chunk = try await server.read(atMost: 64 * 1024)
            } catch SocketError.disconnected {
                break
            }
            guard !statusLineSeen else {
                try await client.write(Data(chunk))
                continue
            }
            pending += chunk
            if let end = pending.firstIndex(of: 0x0A) {
                pending.insert(contentsOf: Array("Connection: close\r\n".utf8), at: end + 1)
                statusLineSeen = true
                try await client.write(Data(pending))
                pending = []
            }
        }
        if !pending.isEmpty { try await client.write(Data(pending)) }
        await Self.linger(client)
    }

    /// Answers `status` with `reason` as text and ends the connection.
    private static func refuse(_ client: AsyncSocket, status: String, _ reason: String) async throws {
        let body = "\(reason)\n"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)"
        try await client.write(Data(response.utf8))
        await linger(client)
    }

    /// Says no more will be sent, then reads and drops what the client is still sending, for a little
    /// while: closing a socket with unread bytes resets the connection, and the client might lose the
    /// response before reading it.
    private static func linger(_ client: AsyncSocket) async {
        shutdown(client.socket.file.rawValue, Int32(SHUT_WR))
        _ = try? await within(.seconds(2)) {
            var drained = 0
            while drained < 4 << 20 { drained += try await client.read(atMost: 64 * 1024).count }
        }
    }

    /// `body`'s result, or `TimedOut` once `limit` has passed (`body` is then cancelled).
    private static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard case let value?? = try await group.next() else { throw TimedOut() }
            return value
        }
    }
}

/// The open connections, in the order they came, and which of them are still sending their head.
private final class ConnectionTable: @unchecked Sendable {
    private struct Entry {
        var file: Int32
        var sendingHead: Bool
    }

    /// By number, which grows with every connection: the smallest is the oldest.
    private var entries: [Int: Entry] = [:]
    private var next = 0
    private let lock = NSLock()

    /// A number for the connection on `file`, making room when `limit` are open by shutting down the
    /// oldest connection still sending its head (its task then ends as if the client had left); nil
    /// when every open connection is past its head.
    func enter(_ file: Int32, below limit: Int) -> Int? {
        lock.withLock {
            if entries.count >= limit {
                guard let oldest = entries.filter({ $0.value.sendingHead }).keys.min(), let entry = entries.removeValue(forKey: oldest)
                else { return nil }
                shutdown(entry.file, Int32(SHUT_RDWR))
            }
            next += 1
            entries[next] = Entry(file: file, sendingHead: true)
            return next
        }
    }

    /// The connection's head is read: it is answered now and is not shut down to make room.
    func started(_ number: Int) {
        lock.withLock { entries[number]?.sendingHead = false }
    }

    func leave(_ number: Int) {
        lock.withLock { _ = entries.removeValue(forKey: number) }
    }
}
