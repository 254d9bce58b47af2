import Foundation
import OrderPressSupport

/// A POSIX record lock in the state folder: `webhook-outbox.lock` is held while the outbox file is read
/// and rewritten (briefly, waiting for another run), `webhook-sending.lock` while a run posts (never
/// waited for: a run that finds another posting leaves its news in the outbox for the next one, so no
/// item is posted twice at once). Two files, since closing any descriptor of a file drops every lock the
/// process holds on it.
final class OutboxLock: @unchecked Sendable {
    static let file = "webhook-outbox.lock"
    static let sending = "webhook-sending.lock"
    private let descriptor: Int32
    private let name: String

    init(state: URL, name: String) throws(OutputError) {
        self.name = name
        let path = state.appendingPathComponent(name).standardizedFileURL.path
        // O_NOFOLLOW: a link in its place must not make the build open a file elsewhere.
        descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno)), cannotCreate: true) }
    }

    deinit { close(descriptor) }

    /// Takes the lock; with `wait`, waits for another run to let go of it, else returns false at once.
    @discardableResult
    func hold(wait: Bool) throws(OutputError) -> Bool {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
                while fcntl(descriptor, wait ? F_SETLKW : F_SETLK, &request) != 0 {
            if errno == EINTR { continue }
            if !wait && (errno == EAGAIN || errno == EACCES) { return false }
            throw OutputError(path: name, reason: String(cString: strerror(errno)), cannotCreate: false)
        }
        return true
    }

    func release() {
        var request = flock()
        request.l_type = Int16(F_UNLCK)
        request.l_whence = Int16(SEEK_SET)
                _ = fcntl(descriptor, F_SETLK, &request)
    }
}
