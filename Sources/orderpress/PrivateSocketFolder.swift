import FlyingSocks
import Foundation

/// A folder only this user can enter (0700, made by `mkdtemp`), holding the Unix socket on which
/// FlyingFox answers `BoundedFrontDoor`: no other local user can reach FlyingFox past the door.
/// (An abstract-namespace socket would leave no file behind, but anyone can connect to one.)
struct PrivateSocketFolder: Sendable {
    let folder: String
    var socketPath: String { folder + "/http.sock" }
    var address: sockaddr_un { .unix(path: socketPath) }

    struct CannotCreate: Error {
        /// The folder it was to be made in.
        var base: String
        var reason: String
    }

    init() throws(CannotCreate) {
        // A socket's path must fit in 108 bytes: a long TMPDIR gives way to /tmp.
        var base = NSTemporaryDirectory()
        if base.utf8.count > 60 { base = "/tmp/" }
        if !base.hasSuffix("/") { base += "/" }
        var template = Array((base + "orderpress-serve.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CannotCreate(base: base, reason: String(cString: strerror(errno))) }
        folder = String(cString: made)
    }

    /// Removes the socket and the folder.
    func remove() {
        unlink(socketPath)
        rmdir(folder)
    }
}
