import Foundation

/// The folders below one root (the markdown or site folder), each opened once, never through a link,
/// and kept open while a publish lasts, so that a file is then reached with one call relative to its
/// folder instead of a walk from the root (`ContainedPath`) for every file. Thread-safe.
///
/// The guarantee is `ContainedPath`'s: every folder is opened with `openat` and `O_NOFOLLOW` relative
/// to its parent's descriptor, so a link swapped in later is never followed; a folder moved away after
/// it was opened is still the real folder it was, never a link's target.
///
/// With `Hiding`, a folder made directly inside one already in place (not a root itself) is made under a
/// hidden temporary name beside where it goes, filled there (with folders made inside it as usual) and
/// renamed into place whole by `putHiddenInPlace`: its new files need no temporary name or unnamed file,
/// since no reader sees the folder before it is complete. The descriptors stay those of the same folders.
package final class OpenFolders: @unchecked Sendable {
    package let root: URL
    /// The root's path, for messages.
    let rootPath: String
    /// Whether folders made here need their mode set again (see `AtomicFile.umaskNarrowsModes`).
    private let fixMode: Bool
    private let lock = NSLock()
    /// Open descriptors by path relative to the root ("" for the root); -1 for a folder found missing.
    private var descriptors: [String: Int32] = [:]
    /// The folders this object made: nothing was in them before this session.
    private var madeHere: Set<String> = []
    private let hiding: Hiding?
    /// The folders made under a hidden name, by path: the hidden name.
    private var hidden: [String: String] = [:]
    /// Those folders and every folder made inside them: not yet where they go.
    private var unseen: Set<String> = []
    /// The hidden folders `putHiddenInPlace` renamed to where they go, in order: `hideAgain` undoes that.
    private var placed: [String] = []
    /// Whether a hidden folder's files had to be moved one by one into a folder in its place: not undone.
    private(set) var movedFiles = false

    /// How folders are made hidden: names carrying `AtomicFile.temporaryMarker` and the session's
    /// `prefix`, so that the sweep after a killed publish removes them; `before` marks the publish
    /// unfinished before the first.
    package struct Hiding {
        package var prefix: String
        package var before: () throws(OutputError) -> Void
        package init(prefix: String, before: @escaping () throws(OutputError) -> Void) {
            self.prefix = prefix
            self.before = before
        }
    }

    /// Where a file goes: its folder relative to the root, its name, and the two joined.
    package struct Place: Sendable {
        package var folder: String
        package var name: String
        package var path: String
    }

    package init(root: URL, fixMode: Bool, hiding: Hiding? = nil) {
        self.root = root
        self.rootPath = root.standardizedFileURL.path
        self.fixMode = fixMode
        self.hiding = hiding
    }

    deinit {
        for descriptor in descriptors.values where descriptor >= 0 { close(descriptor) }
    }

    /// The place of `path`, relative to the root; a path that leaves the root is refused as
    /// `ContainedPath` refuses it, and one that is not plain (`a//b`) is normalised as it normalises it.
    package func place(of path: String) throws(OutputError) -> Place {
        let plain = ContainedPath.isPlain(path) ? path : try ContainedPath(root.appendingPathComponent(path), below: root).components.joined(separator: "/")
        let (folder, name) = Self.split(plain)
        return Place(folder: folder, name: name, path: plain)
    }

    /// The full path of `relative` (a file or folder below the root), for messages.
    package func path(_ relative: String) -> String {
        relative.isEmpty ? rootPath : "\(rootPath)/\(relative)"
    }

    /// The open folder at `relative` (from `Place.folder`), made (with its parents) when `create`; nil
    /// when it is missing and `create` is false. Owned by this object: never close it.
    package func folder(_ relative: String, create: Bool) throws(OutputError) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        return try folderLocked(relative, create: create)
    }

    /// The open folder at `relative`, made (with its parents) when missing; an error when it cannot be.
    package func folder(madeAt relative: String) throws(OutputError) -> Int32 {
        guard let folder = try folder(relative, create: true) else {
            throw OutputError(path: path(relative), reason: String(cString: strerror(ENOENT)), cannotCreate: true)
        }
        return folder
    }

    /// Whether the folder at `relative` is missing or was made by this object: then a file the last build
    /// did not publish cannot be there, unless put there during this session (`AtomicFile.create` sees it).
    package func isNew(_ relative: String) throws(OutputError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if madeHere.contains(relative) { return true }
        return try folderLocked(relative, create: false) == nil
    }

    /// Whether the folder at `relative` was made under a hidden name, or inside such a folder, and is not yet in place.
    package func isHidden(_ relative: String) -> Bool {
        lock.withLock { unseen.contains(relative) }
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
            let (parentPath, name) = Self.split(relative)
            if let parent = try folderLocked(parentPath, create: create) {
                if create, unseen.contains(parentPath) {
                    unseen.insert(relative)
                } else if create, let hiding {
                    if let existing = try ContainedPath.openFolder(name, in: parent, create: false, path: path(relative)) { return existing }
                    if let made = try madeHidden(name, at: relative, in: parent, hiding) { return made }
                }
                descriptor = try ContainedPath.openFolder(name, in: parent, create: create, fixMode: fixMode, path: path(relative))
            } else {
                descriptor = nil
            }
        }
        return descriptor
    }

    /// The folder of `relative` and its name.
    private static func split(_ relative: String) -> (folder: String, name: String) {
        guard let slash = relative.lastIndex(of: "/") else { return ("", relative) }
        return (String(relative[..<slash]), String(relative[relative.index(after: slash)...]))
    }

    /// The missing folder `name` made in `parent` under a hidden name, open; nil when that name cannot be
    /// made (left by a killed build of the same process id, say): the folder is then made where it goes.
    private func madeHidden(_ name: String, at relative: String, in parent: Int32, _ hiding: Hiding) throws(OutputError) -> Int32? {
        try hiding.before()
        let hiddenName = ".\(name)\(AtomicFile.temporaryMarker)\(hiding.prefix)d\(hidden.count)"
        guard mkdirat(parent, hiddenName, 0o755) == 0 else { return nil }
        let descriptor = openat(parent, hiddenName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            unlinkat(parent, hiddenName, AT_REMOVEDIR)
            return nil
        }
        if fixMode { fchmod(descriptor, 0o755) }
        hidden[relative] = hiddenName
        unseen.insert(relative)
        return descriptor
    }

    /// Renames every hidden folder to where it goes, never over anything: `renameat2` with
    /// `RENAME_NOREPLACE`. When something took that name meanwhile (or the file system cannot rename
    /// without replacing), its files go in one by one, as into any folder already in place (see `moveInto`):
    /// a real folder made there is the organiser's, like one this session would have found had it looked
    /// later, so it is kept with what else it holds; a link or a file there is refused as anywhere else.
    package func putHiddenInPlace() throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        // Parents before children cannot matter: no hidden folder is inside another.
        for relative in hidden.keys.sorted() where !placed.contains(relative) {
            let (parentPath, name) = Self.split(relative)
            // Both stay open from the hidden folder's making on: this cannot fail, but never silently.
            guard let hiddenName = hidden[relative], let source = descriptors[relative], let parent = descriptors[parentPath], source >= 0,
                parent >= 0
            else { throw OutputError(path: path(relative), reason: String(cString: strerror(EBADF)), cannotCreate: true) }
            TestHook.reached(.beforeFolderRename)
            if try putInPlace(relative, source: source, named: hiddenName, in: parent, as: name, in: parent) {
                placed.append(relative)
            } else {
                movedFiles = true
                hidden[relative] = nil
            }
        }
        unseen = []
    }

    /// Renames the folders `putHiddenInPlace` put in place back to their hidden names, last first: the publish
    /// failed before the state was committed. False when one could not be (or files were moved one by one);
    /// those stay to be tried again by the next call.
    package func hideAgain() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        var undone = !movedFiles
        var failed: [String] = []
        while let relative = placed.popLast() {
            let (parentPath, name) = Self.split(relative)
            guard let hiddenName = hidden[relative], let parent = descriptors[parentPath], parent >= 0,
                AtomicFile.renameWithoutReplacing(name, in: parent, to: hiddenName, in: parent) == 0 || renameat(parent, name, parent, hiddenName) == 0
            else {
                undone = false
                failed.append(relative)
                continue
            }
        }
        placed = failed.reversed()
        return undone
    }

    /// Removes every folder still under its hidden name, with all it holds: the publish failed.
    package func removeHidden() {
        lock.lock()
        defer { lock.unlock() }
        for (relative, hiddenName) in hidden where !placed.contains(relative) {
            guard let parent = descriptors[Self.split(relative).folder], parent >= 0 else { continue }
            AtomicFile.removeFolder(hiddenName, in: parent)
        }
        hidden = [:]
    }

    /// Whether any folder was made under a hidden name and is not yet in place.
    package var hasHidden: Bool {
        lock.withLock { hidden.keys.contains { !placed.contains($0) } }
    }

    /// Renames the folder `source` (`sourceName` in `parent`) to `name` in `target`, or moves what it holds into what is there.
    /// True when renamed whole; false when its files were moved one by one.
    @discardableResult
    private func putInPlace(
        _ relative: String, source: Int32, named sourceName: String, in parent: Int32, as name: String, in target: Int32
    ) throws(OutputError) -> Bool {
        switch AtomicFile.renameWithoutReplacing(sourceName, in: parent, to: name, in: target) {
        case 0: return true
        case EEXIST, ENOTEMPTY, EINVAL, ENOSYS:
            try moveInto(relative, source: source, named: sourceName, in: parent, as: name, in: target)
            return false
        default: throw ContainedPath.failure(path(relative))
        }
    }

    /// Moves the files and folders of the folder `source` (`sourceName` in `parent`) into the real folder
    /// `name` in `destination`, made if missing, and removes `source`; its descriptor then stands for that
    /// folder. A link or a file at `name` is an error, as where a folder is opened; a file replaces only a
    /// file, as `AtomicFile.replace` does; anything this object did not make in `source` stays there.
    private func moveInto(
        _ relative: String, source: Int32, named sourceName: String, in parent: Int32, as name: String, in destination: Int32
    ) throws(OutputError) {
        guard let target = try ContainedPath.openFolder(name, in: destination, create: true, fixMode: fixMode, path: path(relative)) else {
            throw OutputError(path: path(relative), reason: String(cString: strerror(ENOENT)), cannotCreate: true)
        }
        descriptors[relative] = target
        defer { close(source) }
        for entry in AtomicFile.names(in: source) {
            var status = stat()
            guard fstatat(source, entry, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let child = relative.isEmpty ? entry : "\(relative)/\(entry)"
            switch status.st_mode & mode_t(S_IFMT) {
            case mode_t(S_IFDIR):
                guard unseen.contains(child), let folder = descriptors[child], folder >= 0 else { continue }
                try putInPlace(child, source: folder, named: entry, in: source, as: entry, in: target)
            case mode_t(S_IFREG):
                var existing = stat()
                if fstatat(target, entry, &existing, AT_SYMLINK_NOFOLLOW) == 0,
                    let refusal = ContainedPath.refusal(existing.st_mode & mode_t(S_IFMT), path: path(child))
                {
                    throw refusal
                }
                guard renameat(source, entry, target, entry) == 0 else { throw ContainedPath.failure(path(child), cannotCreate: false) }
            default: continue
            }
        }
        unlinkat(parent, sourceName, AT_REMOVEDIR)
    }
}
