import ArgumentParser
import FlyingFox
import FlyingSocks
import Foundation
import OrderPress

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the built site on http://127.0.0.1:8000/ (this machine only); Ctrl-C stops.",
        discussion: """
            Serves the configuration's site folder and nothing else: 404 for any other path, \
            never the state folder, never a file that a link leads to outside the site folder. \
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
        // Asked for before the server starts, so that a signal sent as soon as the URL is printed
        // is not lost.
        let stop = Self.stopSignals()
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: port), timeout: 15, logger: .disabled,
            handler: SiteHandler(files: files))
        try await Failure.report { () async throws(ServeError) in
            try await Self.serve(server, port: port, root: files.root, until: stop)
        }
    }

    /// Runs `server` until SIGINT or SIGTERM; a port that cannot be opened is a `ServeError`.
    private static func serve(_ server: HTTPServer, port: UInt16, root: String, until stop: AsyncStream<Int32>) async throws(ServeError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                group.addTask {
                    try await server.waitUntilListening(timeout: 60)
                    if case .ip4(_, let port) = await server.listeningAddress {
                        // Unbuffered, as every line: a script (or a test) waits for this one.
                        Terminal.print("Serving \(root) at http://127.0.0.1:\(port)/ (Ctrl-C stops)")
                    }
                    for await _ in stop { break }
                }
                try await group.next()
                group.cancelAll()
                await server.stop(timeout: 1)
            }
        } catch let SocketError.failed(_, errno, message) {
            throw errno == EADDRINUSE ? .portInUse(Int(port)) : .cannotListen(port: Int(port), reason: message)
        } catch {
            throw .cannotListen(port: Int(port), reason: "\(error)")
        }
    }

    /// SIGINT (Ctrl-C) and SIGTERM as a stream, in place of their default action (dying at once).
    private static func stopSignals() -> AsyncStream<Int32> {
        signal(SIGPIPE, SIG_IGN)
        return AsyncStream { continuation in
            // Dispatch sources are not Sendable; these are only cancelled, once, when the stream ends.
            nonisolated(unsafe) let sources = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                return source
            }
            continuation.onTermination = { _ in sources.forEach { $0.cancel() } }
        }
    }
}
