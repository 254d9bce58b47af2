import Foundation
import OrderPressOutput
import OrderPressSupport

/// The mark in the state folder of a publish under way (`PublishSession.unfinishedMarker`): made, durably,
/// before a session's first temporary file or hidden folder, removed once the session has published and the
/// state is committed. Found when a session begins, it says a build died or failed while publishing: the
/// markdown and site folders are then searched for what it left, and no rerun trusts the site unchanged.
///
/// Before a session puts anything in place it writes here the paths of the files it is about to create
/// (those the last manifest does not list), with those an earlier unfinished session recorded: a session
/// that is killed while putting files in place leaves pages no manifest lists, and the next one removes
/// those that are no part of its site. The list is one JSON document, `{"markdown": [...], "site": [...]}`.
/// Its own lock: `OpenFolders` makes it while holding its own, from any thread.
final class UnfinishedMarker: @unchecked Sendable {
    private let state: URL
    private let path: String
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var present: Bool
    /// What an earlier unfinished session recorded it was about to create, by tree; read when the session began.
    let recorded: [OutputTree: [String]]
    /// Whether it was there when the session began.
    let wasPresent: Bool

    init(state: URL, name: String) {
        self.state = state
        let url = state.appendingPathComponent(name, isDirectory: false)
        path = url.path
        var status = stat()
        present = lstat(path, &status) == 0
        wasPresent = present
        // A marker that cannot be read records nothing: its run created nothing yet, or was killed while
        // writing it (written whole, then renamed: never half).
        recorded = present ? ((try? AtomicFile.contents(of: url, below: state)).flatMap { Self.decode($0) } ?? [:]) : [:]
    }

    /// Whether it was there when the session began, or has been made since.
    var isPresent: Bool { lock.withLock { present } }

    /// Makes it, once per session, and flushes the state folder so that it outlives a power cut. A marker an
    /// earlier session left stays as it is, with what it recorded.
    package func make() throws(OutputError) {
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

    /// Records, durably, the files the session is about to create, with those recorded before it; made first if missing.
    func record(_ created: [OutputTree: [String]]) throws(OutputError) {
        var all = recorded
        for (tree, paths) in created { all[tree, default: []] += paths }
        try make()
        var bytes = Array("{".utf8)
        for (index, tree) in OutputTree.allCases.enumerated() {
            bytes += Array("\(index == 0 ? "" : ",")\n\"\(tree.rawValue)\": [".utf8)
            // Sorted and once each: the same files give the same bytes.
            for (number, path) in Set(all[tree] ?? []).sorted().enumerated() {
                bytes += Array((number == 0 ? "\n" : ",\n").utf8)
                JSONEscaper.append(path, to: &bytes)
            }
            bytes += Array("]".utf8)
        }
        bytes += Array("\n}\n".utf8)
        try AtomicFile.write(Data(bytes), to: URL(fileURLWithPath: path), below: state, durable: true)
    }

    func remove() {
        lock.withLock {
            guard present else { return }
            unlink(path)
            present = false
        }
    }

    private static func decode(_ data: Data) -> [OutputTree: [String]]? {
        guard let lists = try? JSONDecoder().decode([String: [String]].self, from: data) else { return nil }
        var recorded: [OutputTree: [String]] = [:]
        for tree in OutputTree.allCases { recorded[tree] = lists[tree.rawValue] ?? [] }
        return recorded
    }
}
