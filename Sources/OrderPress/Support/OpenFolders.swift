import Foundation

/// The folders below one root (the markdown or site folder), each opened once, never through a link,
/// and kept open while a publish lasts, so that a file is then reached with one call relative to its
/// folder instead of a walk from the root (`ContainedPath`) for every file. Thread-safe.
///
/// The guarantee is `ContainedPath`'s: every folder is opened with `openat` and `O_NOFOLLOW` relative
/// to its parent's descriptor, so a link swapped in later is never followed; a folder moved away after
/// it was opened is still the real folder it was, never a link's target.
final class OpenFolders: @unchecked Sendable {
    let root: URL
    /// The root's path, for messages.
    let rootPath: String
    /// Whether folders made here need their mode set again (see `AtomicFile.umaskNarrowsModes`).
    private let fixMode: Bool
    private let lock = NSLock()
    /// Open descriptors by path relative to the root ("" for the root); -1 for a folder found missing.
    private var descriptors: [String: Int32] = [:]
    /// The folders this object made: nothing was in them before this session.
    private var madeHere: Set<String> = []

    /// Where a file goes: its folder relative to the root, its name, and the two joined.
    struct Place: Sendable {
        var folder: String
        var name: String
        var path: String
    }

    init(root: URL, fixMode: Bool) {
        self.root = root
        self.rootPath = root.standardizedFileURL.path
        self.fixMode = fixMode
    }

    deinit {
        for descriptor in descriptors.values where descriptor >= 0 { close(descriptor) }
    }

    /// The place of `path`, relative to the root; a path that leaves the root is refused as
    /// `ContainedPath` refuses it, and one that is not plain (`a//b`) is normalised as it normalises it.
    func place(of path: String) throws(OutputError) -> Place {
        let plain = ContainedPath.isPlain(path) ? path : try ContainedPath(root.appendingPathComponent(path), below: root).components.joined(separator: "/")
        guard let slash = plain.lastIndex(of: "/") else { return Place(folder: "", name: plain, path: plain) }
        return Place(folder: String(plain[..<slash]), name: String(plain[plain.index(after: slash)...]), path: plain)
    }

    /// The full path of `relative` (a file or folder below the root), for messages.
    func path(_ relative: String) -> String {
        relative.isEmpty ? rootPath : "\(rootPath)/\(relative)"
    }

    /// The open folder at `relative` (from `Place.folder`), made (with its parents) when `create`; nil
    /// when it is missing and `create` is false. Owned by this object: never close it.
    func folder(_ relative: String, create: Bool) throws(OutputError) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        return try folderLocked(relative, create: create)
    }

    /// The open folder at `relative`, made (with its parents) when missing; an error when it cannot be.
    func folder(madeAt relative: String) throws(OutputError) -> Int32 {
        guard let folder = try folder(relative, create: true) else {
            throw OutputError(path: path(relative), reason: String(cString: strerror(ENOENT)), cannotCreate: true)
        }
        return folder
    }

    /// Whether the folder at `relative` is missing or was made by this object: then a file the last build
    /// did not publish cannot be there, unless put there during this session (`AtomicFile.create` sees it).
    func isNew(_ relative: String) throws(OutputError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if madeHere.contains(relative) { return true }
        return try folderLocked(relative, create: false) == nil
    }

    private func folderLocked(_ relative: String, create: Bool) throws(OutputError) -> Int32? {
        if let descriptor = descriptors[relative], descriptor >= 0 || !create {
            return descriptor >= 0 ? descriptor : nil
        }
        // Looked for before it is made, to know whether this object made it.
        if create, descriptors[relative] == nil, let existing = try folderLocked(relative, create: false) { return existing }
        let descriptor = try opened(relative, create: create)
        if create, descriptor != nil { madeHere.insert(relative) }
        descriptors[relative] = descriptor ?? -1
        return descriptor
    }

    private func opened(_ relative: String, create: Bool) throws(OutputError) -> Int32? {
        let descriptor: Int32?
        if relative.isEmpty {
            descriptor = try ContainedPath.openRoot(root, create: create)
        } else {
            let slash = relative.lastIndex(of: "/")
            let parentPath = slash.map { String(relative[..<$0]) } ?? ""
            let name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
            if let parent = try folderLocked(parentPath, create: create) {
                descriptor = try ContainedPath.openFolder(name, in: parent, create: create, fixMode: fixMode, path: path(relative))
            } else {
                descriptor = nil
            }
        }
        return descriptor
    }
}
