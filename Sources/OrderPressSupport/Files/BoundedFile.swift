import Foundation

/// Reads a whole file that OrderPress only reads (a local source, a cached copy, the configuration, a
/// template), refusing before reading anything what is not a regular file or is larger than the
/// caller's bound: by default the same 256 MiB as an HTTP source's body (a local orders file may have
/// 1 GiB, `Fetcher.maxOrdersFileBytes`; the configuration and templates 16 MiB). `Data(contentsOf:)`
/// would read a 5 GiB file whole (and abort when memory ran out), wait forever on a named pipe, and
/// never finish `/dev/zero`.
package enum BoundedFile {
    /// Also the bound of a body fetched over HTTP (`URLSessionTransport.maxBodyBytes`).
    package static let maxBytes = 256 << 20

    package enum Failure: Error, Equatable {
        case missing
        /// Larger than `limit` bytes (by its size, or by what it held once read).
        case tooLarge(limit: Int)
        /// A folder, a pipe, a device, a socket.
        case notRegular
        /// A symbolic link, where links are not followed.
        case link
        case system(Int32)

        /// Says what is wrong, for a message that names the file before it ("… is …").
        package var reason: String {
            switch self {
            case .missing: String(cString: strerror(ENOENT))
            case .tooLarge(let limit): "larger than \(Self.size(limit))"
            case .notRegular: "not a regular file"
            case .link: "a symbolic link"
            case .system(let code): String(cString: strerror(code))
            }
        }

        package static func size(_ bytes: Int) -> String {
            bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
        }
    }

    /// The bytes of the file at `path`. With `followLinks` false a link there is `.link`, never read
    /// through. Opened without blocking, so that a named pipe is refused at once rather than waited on;
    /// with `streams` a pipe or device is read instead, up to `limit` bytes (`--config <(…)`).
    package static func read(_ path: String, limit: Int = maxBytes, followLinks: Bool = true, streams: Bool = false) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            if code == ELOOP, !followLinks { throw .link }
            throw .system(code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard status.st_size <= limit else { throw .tooLarge(limit: limit) }
        case S_IFIFO where streams, S_IFCHR where streams:
            // Read as a stream, waiting for its writer; its size says nothing.
            status.st_size = 0
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        default:
            throw .notRegular
        }
        // Read to the end rather than trusting the size: the file may have grown since (up to the limit).
        var data = Data(count: min(Int(status.st_size), limit) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { throw .tooLarge(limit: limit) }
                data.count = min(data.count * 2, limit + 1)
            }
            let count = data.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            filled += count
        }
        data.count = filled
        return data
    }
}
