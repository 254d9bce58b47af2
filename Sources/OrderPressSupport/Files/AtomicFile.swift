import Foundation

/// Writes whole files atomically: a temporary file in the same folder, then a rename over the old one.
/// Every file lives below a root (the markdown, site or state folder) and is reached through
/// `ContainedPath`, so that no symbolic link below the root is ever written, read or removed through.
package enum AtomicFile {
    /// Marks temporary files, so that a later run can recognise and remove what a killed run left.
    package static let temporaryMarker = ".orderpress-tmp-"

    /// Writes `data` to `url` below `root` with mode 0644 (whatever the umask), creating folders (0755)
    /// as needed. With `durable`, the file is flushed to disk before it replaces the old one; with `newest`,
    /// its modification time is later than that of every file written before it (see `replace`).
    package static func write(_ data: Data, to url: URL, below root: URL, durable: Bool = false, newest: Bool = false) throws(OutputError) {
        let target = try ContainedPath(url, below: root)
        guard let folder = try target.openFolder(create: true) else {
            throw OutputError(path: target.path, reason: String(cString: strerror(ENOENT)), cannotCreate: true)
        }
        defer { close(folder) }
        try target.refuseUnlessFile(in: folder)
        try replace(
            target.name, in: folder, with: data, temporary: ".\(target.name)\(temporaryMarker)\(getpid())", path: target.path,
            durable: durable, newest: newest)
    }

    /// `write`, for a file of the state that only its owner may read (mode 0600): the secret hashes' key.
    package static func writePrivate(_ data: Data, to url: URL, below root: URL) throws(OutputError) {
        try write(data, to: url, below: root, durable: true)
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw ContainedPath.failure(url.path) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw ContainedPath.failure(url.path) }
    }

    /// Makes the state folder its owner's alone: the folder and every folder below it 0700, every file
    /// 0600, never through a symbolic link (a link is left as it is). The snapshot's hashes, the cached
    /// sources and the key are nobody else's to read, whatever the umask gave the files SQLite and the
    /// source cache made. Best effort: a file that cannot be changed is left (the folder's mode guards it).
    package static func makePrivate(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        makePrivate(descriptor, path: folder.path, depth: 0)
    }

    private static func makePrivate(_ folder: Int32, path: String, depth: Int) {
        _ = fchmod(folder, 0o700)
        guard depth < 4, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        // Never the lock: closing a descriptor of it would drop the build's record lock (`BuildLock` sets its mode).
        for name in names where !(depth == 0 && name == "lock") {
            let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: makePrivate(descriptor, path: path + "/" + name, depth: depth + 1)
            case S_IFREG where status.st_mode & 0o777 != 0o600: _ = fchmod(descriptor, 0o600)
            default: continue
            }
        }
    }

    /// Creates the temporary file `name` in the open folder `folder` for writing; -1 (and `errno`) when it cannot.
    package static func createTemporary(_ name: String, in folder: Int32) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var descriptor = openat(folder, name, flags, 0o644)
        if descriptor < 0, errno == EEXIST {
            // Left by a killed build that had the same process id: only temporary files carry the marker.
            unlinkat(folder, name, 0)
            descriptor = openat(folder, name, flags, 0o644)
        }
        return descriptor
    }

    /// Puts `data` in place as `name` in the open folder `folder`: writes the temporary file `temporary`
    /// beside it, then renames that over `name`. `fixMode` says whether the umask may have taken bits
    /// off 0644; `path` names the file in errors. Returns the new file's status (size, modification time).
    @discardableResult
    package static func replace(
        _ name: String, in folder: Int32, with data: Data, temporary: String, path: @autoclosure () -> String,
        durable: Bool = false, newest: Bool = false, fixMode: Bool = true
    ) throws(OutputError) -> stat {
        let status = try writeTemporary(temporary, in: folder, with: data, path: path(), durable: durable, newest: newest, fixMode: fixMode)
        TestHook.reached(.beforeRename)
        // renameat replaces the directory entry: had a link appeared at the name since the check above,
        // the link itself would be replaced, never the file it points to.
        guard renameat(folder, temporary, folder, name) == 0 else {
            let error = ContainedPath.failure(path(), cannotCreate: false)
            unlinkat(folder, temporary, 0)
            throw error
        }
        if durable { fsync(folder) }
        return status
    }

    /// Writes `data` whole into the new temporary file `temporary` in the open folder `folder`, and leaves it
    /// there for the caller to rename; on failure removes it. Returns its status (size, modification time).
    @discardableResult
    package static func writeTemporary(
        _ temporary: String, in folder: Int32, with data: Data, path: @autoclosure () -> String,
        durable: Bool = false, newest: Bool = false, fixMode: Bool = true
    ) throws(OutputError) -> stat {
        let descriptor = createTemporary(temporary, in: folder)
        guard descriptor >= 0 else { throw ContainedPath.failure(path()) }
        // Linux 6.13+ stamps a change with the clock's last tick (a few ms), shared by every file changed
        // within it, unless the file's times were read since its last change: read now, the write below gets
        // the exact time. The manifest needs it: a file it records as new as itself is in doubt (`PublishSession`),
        // and the pages written in its last tick, straight into a hidden folder, have had their times read
        // only after their last change.
        if newest {
            var status = stat()
            fstat(descriptor, &status)
        }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        func fail() -> OutputError {
            let error = ContainedPath.failure(path(), cannotCreate: false)
            unlinkat(folder, temporary, 0)
            return error
        }
        // The temporary file's mode must not depend on the umask: published files are world-readable.
        var status = stat()
        guard writeAll(data, to: descriptor), !fixMode || fchmod(descriptor, 0o644) == 0, !durable || fsync(descriptor) == 0,
            fstat(descriptor, &status) == 0
        else { throw fail() }
        closed = true
        guard close(descriptor) == 0 else { throw fail() }
        return status
    }

    /// What became of `createUnseen`.
    package enum Creation {
        /// The file is in place; its status (size, modification time).
        case created(stat)
        /// Something is at the name already: the caller compares and replaces it as usual.
        case taken
    }

    /// Creates `name` in the open folder `folder`, which no reader sees yet (see `OpenFolders.Hiding`), and
    /// writes `data` into it there: no temporary name, no unnamed file. `O_EXCL`: never over anything at the
    /// name, which is then `.taken`. Cheaper in system time than an
    /// unnamed file (`O_TMPFILE`) linked in through /proc (docs/benchmarks.md).
    package static func createUnseen(
        _ name: String, in folder: Int32, with data: Data, path: @autoclosure () -> String, fixMode: Bool = true
    ) throws(OutputError) -> Creation {
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { return .taken }
            throw ContainedPath.failure(path())
        }
        defer { close(descriptor) }
        guard let status = filled(descriptor, with: data, fixMode: fixMode) else {
            let error = ContainedPath.failure(path(), cannotCreate: false)
            unlinkat(folder, name, 0)
            throw error
        }
        return .created(status)
    }

    /// Writes `data` to the new file `descriptor` and sets its mode to 0644 when `fixMode` (published files are
    /// world-readable, whatever the umask); its status after, or nil on failure.
    private static func filled(_ descriptor: Int32, with data: Data, fixMode: Bool) -> stat? {
        var status = stat()
        guard writeAll(data, to: descriptor), !fixMode || fchmod(descriptor, 0o644) == 0, fstat(descriptor, &status) == 0 else { return nil }
        return status
    }

    /// Renames `name` in the open folder `folder` to `newName` in `newFolder`, only if nothing is at
    /// `newName`, link or not: 0, or the `errno` it failed with (`EEXIST` when something is there; `ENOSYS`
    /// or `EINVAL` when the system or file system cannot do it). glibc's `renameat2`, looked up by name:
    /// Swift's Glibc module leaves it out (it needs `_GNU_SOURCE`).
    package static func renameWithoutReplacing(_ name: String, in folder: Int32, to newName: String, in newFolder: Int32) -> Int32 {
        guard let renameat2 = renameat2 else { return ENOSYS }
        return renameat2(folder, name, newFolder, newName, 1 /* RENAME_NOREPLACE */) == 0 ? 0 : errno
    }

    /// Swaps the files `name` and `other` in the open folder `folder`, atomically (`RENAME_EXCHANGE`): 0, or
    /// the `errno` it failed with (`ENOENT` when either is missing; `ENOSYS` or `EINVAL` when the system or
    /// file system cannot do it).
    package static func exchange(_ name: String, with other: String, in folder: Int32) -> Int32 {
        guard let renameat2 = renameat2 else { return ENOSYS }
        return renameat2(folder, name, folder, other, 2 /* RENAME_EXCHANGE */) == 0 ? 0 : errno
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Nil where the C library has none.
    private static let renameat2: RenameAt2? = {
        #if canImport(Glibc)
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }
        #else
        nil
        #endif
    }()

    /// Writes every byte of `data` to `descriptor`; false on failure.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { writeAll($0, to: descriptor) } == 0
    }

    /// Writes every byte of `bytes` to `descriptor`, again after an interruption; 0, or the `errno` it failed with.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let result = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += result
        }
        return 0
    }

    /// Whether the umask takes any bit off 0644 (files) or 0755 (folders), so that modes must be set
    /// again after creation. Read from /proc where there is one: setting the umask to read it would
    /// change it for a moment for every thread of the process.
    package static func umaskNarrowsModes() -> (files: Bool, folders: Bool) {
        var mask: mode_t
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
        {
            mask = value
        } else {
            mask = umask(0o022)
            umask(mask)
        }
        return (mask & 0o644 != 0, mask & 0o755 != 0)
    }

    /// The bytes of the regular file at `url` below `root`; nil when there is none. A link in the way is
    /// an error, since that is where OrderPress would write.
    package static func contents(of url: URL, below root: URL, maxBytes: Int = .max) throws(OutputError) -> Data? {
        try contentsAndStatus(of: url, below: root, maxBytes: maxBytes)?.data
    }

    /// `contents`, with the file's status as it was when it was read. A file whose size is over `maxBytes`
    /// is not read (empty data, its status saying the size), and of one that grows while it is read at most
    /// `maxBytes + 1` bytes are: a caller that sees more than `maxBytes` knows the file is too large without
    /// having held it whole.
    package static func contentsAndStatus(of url: URL, below root: URL, maxBytes: Int = .max) throws(OutputError) -> (data: Data, status: stat)? {
        let target = try ContainedPath(url, below: root)
        guard let folder = try target.openFolder(create: false) else { return nil }
        defer { close(folder) }
        try target.refuseUnlessFile(in: folder)
        let descriptor = openat(folder, target.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw ContainedPath.failure(target.path, cannotCreate: false)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ContainedPath.failure(target.path, cannotCreate: false) }
        do {
            if maxBytes < .max {
                guard status.st_size <= maxBytes else { return (Data(), status) }
                return (try handle.read(upToCount: maxBytes + 1) ?? Data(), status)
            }
            return (try handle.readToEnd() ?? Data(), status)
        } catch {
            throw OutputError(path: target.path, reason: IOFailure.reason(error), cannotCreate: false)
        }
    }

    /// Removes the file at `url` below `root`, if it is there; a link in its place or on the way is an error.
    package static func remove(_ url: URL, below root: URL) throws(OutputError) {
        let target = try ContainedPath(url, below: root)
        guard let folder = try target.openFolder(create: false) else { return }
        defer { close(folder) }
        switch target.kind(in: folder) {
        case nil: return
        case mode_t(S_IFREG)?:
            guard unlinkat(folder, target.name, 0) == 0 || errno == ENOENT else {
                throw ContainedPath.failure(target.path, cannotCreate: false)
            }
        default: try target.refuseUnlessFile(in: folder)
        }
    }

    /// Creates `folder` and any missing parents with mode 0755, whatever the umask. For the configured
    /// folders themselves, which may be links (or lie below links) of the organiser's choosing.
    package static func createFolder(_ folder: URL) throws(OutputError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
        try createFolder(folder.deletingLastPathComponent())
        guard mkdir(folder.path, 0o755) == 0 else {
            let code = errno
            // Made since the check above, by another process (two builds started at the same instant
            // on a fresh site): a folder standing there now is what was wanted, not an error.
            if code == EEXIST, FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
            let reason = code == EEXIST ? "a file of that name is in the way" : String(cString: strerror(code))
            throw OutputError(path: folder.path, reason: reason, cannotCreate: true)
        }
        chmod(folder.path, 0o755)
    }

    /// Deletes the temporary files and hidden folders (see `OpenFolders.Hiding`) that a killed build left
    /// below `root`; they are hidden and never pages. Descends only into real folders, never through a link.
    package static func removeLeftovers(below root: URL) {
        walk(below: root) { folder, name, kind, _ in
            guard name.contains(temporaryMarker) else { return }
            if kind == mode_t(S_IFREG) { unlinkat(folder, name, 0) }
            if kind == mode_t(S_IFDIR) { removeFolder(name, in: folder) }
        }
    }

    /// Removes the real folder `name` in the open folder `folder` and all it holds; a link in it is removed,
    /// never followed. Best effort: what cannot be removed stays.
    static func removeFolder(_ name: String, in folder: Int32) {
        let descriptor = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        for entry in names(in: descriptor) {
            var status = stat()
            guard fstatat(descriptor, entry, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) { removeFolder(entry, in: descriptor) } else { unlinkat(descriptor, entry, 0) }
        }
        close(descriptor)
        unlinkat(folder, name, AT_REMOVEDIR)
    }

    /// The names in the open folder `folder` but `.` and `..`, sorted; `folder` stays open.
    static func names(in folder: Int32) -> [String] {
        let copy = dup(folder)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Calls `visit` with each entry below `root` (its folder, name, type bits and path), depth first,
    /// descending only into real folders: a link is visited, never followed.
    package static func walk(below root: URL, _ visit: (_ folder: Int32, _ name: String, _ kind: mode_t, _ path: String) -> Void) {
        let folder = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        walk(folder, path: root.standardizedFileURL.path, visit)
    }

    /// Walks the open folder `folder` and closes it.
    private static func walk(_ folder: Int32, path: String, _ visit: (Int32, String, mode_t, String) -> Void) {
        defer { close(folder) }
        for name in names(in: folder) {
            var status = stat()
            guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let kind = status.st_mode & mode_t(S_IFMT)
            visit(folder, name, kind, "\(path)/\(name)")
            if kind == mode_t(S_IFDIR) {
                let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if child >= 0 { walk(child, path: "\(path)/\(name)", visit) }
            }
        }
    }
}
