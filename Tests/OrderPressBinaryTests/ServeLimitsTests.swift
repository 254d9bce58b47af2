import Foundation
import Testing
import OrderPressTestSupport


/// `orderpress serve` against clients that send too much: over real loopback sockets, with the built
/// binary. Every socket here gives up after a few seconds, so that a server that stops answering fails
/// the test instead of hanging it.
@Suite struct ServeLimitsTests {
    /// A plain TCP client of 127.0.0.1 whose sends and receives give up after `timeout` seconds.
    final class Client {
        let socket: Int32

        init(port: Int, timeout: Int = 5) throws {
            socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw POSIXError(.EIO) }
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(socket)
                throw POSIXError(.ECONNREFUSED)
            }
        }

        deinit { close(socket) }

        /// Sends what it can of `bytes`; false when the server stopped taking them (closed, or the timeout).
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }

        func send(_ text: String) { send(Array(text.utf8)) }

        /// Everything received until the server closes the connection or the timeout passes.
        func receiveAll() -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received += buffer[0..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// The status code of the response received, 0 when none came.
        func status() -> Int {
            let response = receiveAll()
            guard response.hasPrefix("HTTP/1.1 ") else { return 0 }
            return Int(response.dropFirst(9).prefix(3)) ?? 0
        }
    }

    /// `GET target` with `header` as one more header field; the response's status, 0 when none came.
    static func get(_ port: Int, _ target: String = "/", header: String = "") throws -> Int {
        let client = try Client(port: port)
        client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header.isEmpty ? "" : header + "\r\n")\r\n")
        return client.status()
    }

    /// One megabyte of header field, the size that kept FlyingFox's parser busy indefinitely.
    static let megabyteField = "X-Padding: " + String(repeating: "a", count: 1 << 20)

    @Test func anOverlongHeadIsRefusedAtOnceWhileOtherClientsAreServed() throws {
        let (_, site) = try InitServeTests.newSite()
        let server = try ServeProcess(["serve", "--port", "0"], in: site)
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) } }
        let port = server.port

        // Three clients start a megabyte of header and leave without ending it.
        for _ in 0..<3 {
            let client = try Client(port: port, timeout: 1)
            client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            client.send(Self.megabyteField)
        }
        // A slow client is halfway through a long head…
        let slow = try Client(port: port)
        slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + String(repeating: "a", count: 12_000))
        // …while a normal one is answered.
        #expect(try Self.get(port) == 200)
        #expect(try Self.get(port, "/style.css") == 200)
        slow.send(String(repeating: "a", count: 12_000) + "\r\n\r\n")
        #expect(slow.status() == 431)

        #expect(try Self.get(port, header: Self.megabyteField) == 431)
        let refused = try Client(port: port)
        refused.send("GET /\(String(repeating: "x", count: 5000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(refused.receiveAll().hasPrefix("HTTP/1.1 414 URI Too Long\r\n"))
        // Within the bounds, cookies and all, a request is answered as ever; each response says the
        // connection ends with it.
        let cookies = try Client(port: port)
        cookies.send("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(String(repeating: "c=1; ", count: 2000))\r\n\r\n")
        let answer = cookies.receiveAll()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\nConnection: close\r\n"))
        #expect(answer.hasSuffix(try String(contentsOf: site.appendingPathComponent("output/site/index.html"), encoding: .utf8)))
        #expect(try Self.get(port, "/missing.html") == 404)

        // Stopped by SIGTERM while clients are still sending megabytes.
        let pending = try (0..<3).map { _ in try Client(port: port, timeout: 1) }
        for client in pending { client.send("GET / HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 300_000)) }
        let stopped = Self.stop(server, within: 10)
        #expect(stopped?.status == 0)
        #expect(stopped?.stderr == "")
    }

    @Test func aClientThatSendsNothingIsLetGoAndOthersAreServed() throws {
        let (_, site) = try InitServeTests.newSite()
        let server = try ServeProcess(["serve", "--port", "0"], in: site)
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) } }
        // Idle connections hold no thread: many of them at once do not keep anyone else waiting.
        let idle = try (0..<50).map { _ in try Client(port: server.port, timeout: 15) }
        #expect(try Self.get(server.port) == 200)
        // A head that never ends is answered 408 once its deadline has passed, and the connection closed.
        idle[0].send("GET / HTTP/1.1\r\n")
        #expect(idle[0].receiveAll().hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(Self.stop(server, within: 10)?.status == 0)
    }

    /// Issue 36, item 9: 256 connections that send nothing used to take every place at the door, and each
    /// real client was closed unanswered; now the oldest silent one makes room.
    @Test func hundredsOfIdleConnectionsDoNotLockOutRealClients() throws {
        let (_, site) = try InitServeTests.newSite()
        let server = try ServeProcess(["serve", "--port", "0"], in: site)
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) } }
        let idle = try (0..<300).map { _ in try Client(port: server.port, timeout: 15) }
        for target in ["/", "/style.css", "/", "/index.html", "/style.css"] {
            #expect(try Self.get(server.port, target) == 200)
        }
        // A connection that sent its head in time is never the one closed to make room.
        #expect(idle.count == 300)
        #expect(Self.stop(server, within: 10)?.status == 0)
    }

    /// HEAD says what GET would send, without the body.
    @Test func headAnswersTheLengthGetWouldSend() throws {
        let (_, site) = try InitServeTests.newSite()
        let server = try ServeProcess(["serve", "--port", "0"], in: site)
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) } }
        let page = try Data(contentsOf: site.appendingPathComponent("output/site/index.html"))
        let client = try Client(port: server.port)
        client.send("HEAD /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let response = client.receiveAll()
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("\r\nContent-Length: \(page.count)\r\n"), "\(response)")
        #expect(response.hasSuffix("\r\n\r\n"), "HEAD sent a body")
        #expect(Self.stop(server, within: 10)?.status == 0)
    }

    /// Resident memory of `pid` in bytes (Linux's /proc).
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? "")) * 1024
    }

    /// Files are streamed: clients that ask for a large file and read none of it cost the server a buffer
    /// each, not a copy of the file (200 slow clients of a large `summary.json` once took 6.3 GB).
    @Test func slowClientsOfALargeFileDoNotGrowTheServer() throws {
        let (_, site) = try InitServeTests.newSite()
        let size = 16 << 20
        try Data(repeating: UInt8(ascii: "x"), count: size).write(to: site.appendingPathComponent("output/site/big.json"))
        let server = try ServeProcess(["serve", "--port", "0"], in: site)
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) } }
        #expect(try Self.get(server.port) == 200)
        let before = try Self.residentBytes(server.process.processIdentifier)
        let slow = try (0..<20).map { _ in try Client(port: server.port, timeout: 15) }
        for client in slow { client.send("GET /big.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        var peak = before
        for _ in 0..<15 {
            usleep(100_000)
            peak = max(peak, try Self.residentBytes(server.process.processIdentifier))
        }
        // Twenty copies would be 320 MB; twenty buffers are a few MB.
        #expect(peak - before < 48 << 20, "resident memory grew by \(peak - before) bytes")
        // Still answered, in full, to a client that reads.
        let reader = try Client(port: server.port, timeout: 15)
        reader.send("GET /big.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let response = reader.receiveAll()
        #expect(response.contains("\r\nContent-Length: \(size)\r\n"))
        #expect(response.utf8.count > size)
        withExtendedLifetime(slow) {}
        #expect(Self.stop(server, within: 10)?.status == 0)
    }

    /// Item 13: a temporary folder that cannot be used is reported as that, not as a port to change.
    @Test func anUnusableTemporaryFolderIsSaidSo() throws {
        let (_, site) = try InitServeTests.newSite()
        // Short: a TMPDIR longer than a socket's path allows is passed over for /tmp.
        let missing = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))"
        do {
            let server = try ServeProcess(["serve", "--port", "0"], in: site, environment: ["TMPDIR": missing])
            Issue.record("serve started with TMPDIR=\(missing)")
            _ = server.stop(SIGKILL)
        } catch let failure as ServeProcess.DidNotStart {
            #expect(failure.status == 73)
            #expect(failure.stderr.contains(missing + "/") && failure.stderr.contains("TMPDIR"), "\(failure.stderr)")
            #expect(!failure.stderr.contains("--port"), "\(failure.stderr)")
        }
    }

    /// SIGTERM, then the exit status and standard error once the process has ended; nil (and the process
    /// killed) when it was still running `seconds` later.
    static func stop(_ server: ServeProcess, within seconds: Double) -> (status: Int32, stderr: String)? {
        kill(server.process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while server.process.isRunning, Date() < deadline { usleep(20_000) }
        guard !server.process.isRunning else {
            kill(server.process.processIdentifier, SIGKILL)
            return nil
        }
        return server.stop()
    }
}
