import Foundation

/// Standard input read whole for `orderpress markdown`, bounded like a file (`BoundedFile`).
public enum StandardInput {
    /// As for a local source or a body fetched over HTTP.
    public static let maxBytes = BoundedFile.maxBytes

    /// Why standard input could not be read, said after "cannot read standard input".
    public struct Failure: Error, Equatable {
        public var reason: String
    }

    /// The bytes, or why there are none to be had.
    public static func contents() -> Result<Data, Failure> {
        do throws(BoundedFile.Failure) {
            return .success(try read())
        } catch {
            return .failure(Failure(reason: error.reason))
        }
    }

    /// Standard input's bytes, up to `limit`, in memory of its own: when memory runs out (a process
    /// under a limit) the answer is `.system(ENOMEM)`, where `FileHandle.readDataToEndOfFile` crashes.
    static func read(limit: Int = maxBytes) throws(BoundedFile.Failure) -> Data {
        var capacity = 1 << 16
        guard var base = malloc(capacity) else { throw .system(ENOMEM) }
        var filled = 0
        while true {
            if filled == capacity {
                guard capacity <= limit else {
                    free(base)
                    throw .tooLarge(limit: limit)
                }
                let grown = min(capacity * 2, limit + 1)
                guard let moved = realloc(base, grown) else {
                    free(base)
                    throw .system(ENOMEM)
                }
                (base, capacity) = (moved, grown)
            }
            let count = Foundation.read(STDIN_FILENO, base + filled, capacity - filled)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                free(base)
                throw .system(code)
            }
            filled += count
        }
        guard filled > 0 else {
            free(base)
            return Data()
        }
        return Data(bytesNoCopy: base, count: filled, deallocator: .free)
    }
}
