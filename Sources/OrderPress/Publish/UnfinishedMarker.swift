import Foundation

/// The mark in the state folder of a publish under way (`PublishSession.unfinishedMarker`): made, durably,
/// before a session's first temporary file or hidden folder, removed by `finish`. Found at `begin`, it says a
/// build died while publishing, and only then are the markdown and site folders searched for what it left.
/// Its own lock: `OpenFolders` makes it while holding its own, from any thread.
final class UnfinishedMarker: @unchecked Sendable {
    private let state: URL
    private let path: String
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var present: Bool

    init(state: URL, name: String) {
        self.state = state
        path = state.appendingPathComponent(name, isDirectory: false).path
        var status = stat()
        present = lstat(path, &status) == 0
    }

    /// Whether it was there when the session began, or has been made since.
    var isPresent: Bool { lock.withLock { present } }

    /// Makes it, once per session, and flushes the state folder so that it outlives a power cut.
    func make() throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard !present else { return }
        try AtomicFile.createFolder(state)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ContainedPath.failure(URL(fileURLWithPath: path).standardizedFileURL.path) }
        close(descriptor)
        let folder = open(state.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        present = true
    }

    func remove() {
        lock.withLock {
            guard present else { return }
            unlink(path)
            present = false
        }
    }
}
