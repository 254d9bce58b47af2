import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `orderpress serve` running in the background, started as a user would, and requests to it.
package final class ServeProcess {
    package let process: Process
    /// Every line printed on stdout up to and including the "Serving … at URL" line.
    package let lines: [String]
    package let port: Int
    private let errors: Pipe

    package struct DidNotStart: Error, CustomStringConvertible {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        package var description: String { "serve exited \(status) before serving: \(stdout) \(stderr)" }
    }

    /// Starts the binary and returns once it printed its URL.
    package init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = TestSupport.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var text = ""
        while !text.contains(" at http://") || !text.hasSuffix("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                process.waitUntilExit()
                throw DidNotStart(
                    status: process.terminationStatus, stdout: text,
                    stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
        lines = text.split(separator: "\n").map(String.init)
        let url = lines.last!.split(separator: " ").first { $0.hasPrefix("http://") }!
        port = Int(url.dropFirst("http://127.0.0.1:".count).dropLast())!
    }

    /// Sends `signal` and waits for the process to end.
    package func stop(_ signal: Int32 = SIGTERM) -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// A GET through URLSession (which follows redirects and tidies `..` away itself).
    package func get(_ pathAndQuery: String) async throws -> (status: Int, type: String?, body: Data) {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") else { throw URLError(.badURL) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(from: url)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type"), body)
    }

    /// A GET whose request target is sent byte for byte as given (`/../x`), over a plain socket:
    /// the status code and the headers, lower-cased names.
    package func rawGet(_ target: String) throws -> (status: Int, headers: [String: String]) {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(socket, request, request.count, 0) == request.count else { throw POSIXError(.EIO) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while String(decoding: received, as: UTF8.self).range(of: "\r\n\r\n") == nil {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let head = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (status, headers)
    }
}
