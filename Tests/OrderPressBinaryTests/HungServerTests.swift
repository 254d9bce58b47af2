import Foundation
import Testing
import OrderPressTestSupport


/// Issue 36, item 10: a server that accepts the connection and never answers costs no CPU while the
/// fetch waits for it (URLSession on Linux spun on the socket, 84 % of a core for the whole timeout).
@Suite struct HungServerTests {
    /// A socket on 127.0.0.1 that listens and never accepts: the kernel completes the connection, takes
    /// the request into its buffer, and nothing ever answers.
    final class SilentListener {
        let socket: Int32
        let port: Int

        init() throws {
            let listening = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(listening, 16) == 0 else {
                close(listening)
                throw POSIXError(.EADDRINUSE)
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
            }
            socket = listening
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(socket) }
    }

    /// Runs the built binary with `arguments`, its output dropped, and returns its exit status and the CPU
    /// time it used (user and system), measured by `wait4` for that process alone.
    static func runMeasured(_ arguments: [String]) throws -> (status: Int32, cpuSeconds: Double) {
        let path = TestSupport.binary.path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ((status >> 8) & 0xFF, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    @Test func waitingForAServerThatNeverAnswersCostsNoCPU() throws {
        let listener = try SilentListener()
        let folder = TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("orderpress.toml")
        try Data(
            """
            base_currency = "TWD"
            [output]
            markdown = "\(folder.path)/out/markdown"
            site = "\(folder.path)/out/site"
            state = "\(folder.path)/out/state"
            [orders]
            url = "http://127.0.0.1:\(listener.port)/api/v1/abc?sheet=orders"
            timeout_seconds = 2

            """.utf8
        ).write(to: config)
        let started = Date()
        let (status, cpu) = try Self.runMeasured(["check", "--config", config.path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(status == 69)
        // It did wait (two attempts of 2 s), and spent a fraction of a second of CPU doing so, start-up included.
        #expect(elapsed >= 3.5)
        #expect(cpu < 0.5, "\(cpu) s of CPU in \(elapsed) s")
    }
}
