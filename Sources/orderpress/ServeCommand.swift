import ArgumentParser
import FlyingFox
import FlyingSocks
import Foundation
import OrderPressServe

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the built site on http://127.0.0.1:8000/ (this machine only); Ctrl-C stops.",
        discussion: """
            Serves the configuration's site folder and nothing else: 404 for any other path, \
            never the state folder, never a file that a link leads to outside the site folder. \
            A request line over 4 KiB is answered 414, a request head over 16 KiB 431. \
            A port in use exits 75.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: "The port on 127.0.0.1; 0 picks a free one.")
    var port: UInt16 = 8000

    @Flag(help: "Build the site first (as `orderpress build`); serve only if the build succeeds.")
    var build = false

    func run() async throws {
        if build {
            let command = try BuildCommand.parse(["--config", config.config])
            try await command.run()
        }
        let configuration = try config.load()
        let files = try Failure.report { () throws(ServeError) in try SiteFiles(configuration: configuration) }
        let backend = try Failure.report { () throws(ServeError) in
            do throws(PrivateSocketFolder.CannotCreate) {
                return try PrivateSocketFolder()
            } catch {
                throw .noSocketFolder(folder: error.base, reason: error.reason)
            }
        }
        defer { backend.remove() }
        // Asked for before the server starts, so that a signal sent as soon as the URL is printed
        // is not lost.
        let stop = Self.stopSignals(cleanup: backend.remove)
        let door = try Failure.report { () throws(ServeError) in
            do {
                return try BoundedFrontDoor(port: port, backend: backend.address)
            } catch {
                throw Self.listenFailure(error, port: port)
            }
        }
        // FlyingFox answers only what the door lets through, on a socket no one else can reach.
        let server = HTTPServer(address: backend.address, timeout: 15, logger: .disabled, handler: SiteHandler(files: files))
        try await Failure.report { () async throws(ServeError) in
            try await Self.serve(server, door: door, root: files.root, until: stop)
        }
    }

    /// Runs `server` behind `door` until SIGINT or SIGTERM.
    private static func serve(_ server: HTTPServer, door: BoundedFrontDoor, root: String, until stop: AsyncStream<Int32>) async throws(ServeError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                group.addTask { try await door.run() }
                group.addTask {
                    try await server.waitUntilListening(timeout: 60)
                    // Unbuffered, as every line: a script (or a test) waits for this one.
                    Terminal.print("Serving \(root) at http://127.0.0.1:\(door.port)/ (Ctrl-C stops)")
                    for await _ in stop { break }
                }
                try await group.next()
                group.cancelAll()
                await server.stop(timeout: 1)
            }
        } catch {
            throw listenFailure(error, port: door.port)
        }
    }

    private static func listenFailure(_ error: any Error, port: UInt16) -> ServeError {
        if case let SocketError.failed(_, errno, message) = error {
            return errno == EADDRINUSE ? .portInUse(Int(port)) : .cannotListen(port: Int(port), reason: message)
        }
        return .cannotListen(port: Int(port), reason: "\(error)")
    }

    /// How long a stop may take: past this after a signal, the process ends (`cleanup` first) even if
    /// the server's tasks have not wound down.
    static let stopGrace: TimeInterval = 2

    /// SIGINT (Ctrl-C) and SIGTERM as a stream, in place of their default action (dying at once).
    /// The handlers run on a dispatch queue, not on Swift's cooperative threads, so a signal is
    /// heard however busy those are.
    private static func stopSignals(cleanup: @escaping @Sendable () -> Void) -> AsyncStream<Int32> {
        signal(SIGPIPE, SIG_IGN)
        return AsyncStream { continuation in
            // Dispatch sources are not Sendable; these are only cancelled, once, when the stream ends.
            nonisolated(unsafe) let sources = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    continuation.yield(number)
                    DispatchQueue.global().asyncAfter(deadline: .now() + stopGrace) {
                        cleanup()
                        Foundation.exit(0)
                    }
                }
                source.resume()
                return source
            }
            continuation.onTermination = { _ in sources.forEach { $0.cancel() } }
        }
    }
}
