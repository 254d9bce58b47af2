import Foundation

/// A path below one of OrderPress's folders (markdown, site, state), reached one component at a time
/// without ever following a symbolic link below that folder. The folder itself may be a link: where
/// the organiser puts the site is theirs to choose; what lies inside it is OrderPress's.
///
/// Why `openat` with `O_NOFOLLOW` rather than checking each component with `lstat` and then using the
/// path: between a check and a use by path, another process can swap a folder for a link, and the
/// write then lands wherever the link points. Holding each folder open and naming only the next
/// component relative to it means the kernel itself refuses to follow a link, whenever it appears;
/// `renameat` and `unlinkat` act on the directory entry, never on what a link points to.
package struct ContainedPath {
    package let root: URL
    /// The names below the root, the last one being the file itself; never empty, never `.` or `..`.
    let components: [String]

    package init(_ url: URL, below root: URL) throws(OutputError) {
        let rootPath = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        let components = path.hasPrefix(prefix) ? path.dropFirst(prefix.count).split(separator: "/").map(String.init) : []
        guard !components.isEmpty, !components.contains(where: { $0 == "." || $0 == ".." || $0.contains("\0") }) else {
            throw OutputError(
                path: path, reason: "outside \(rootPath)", cannotCreate: true,
                advice: "every file OrderPress writes stays inside its folder; please report this as a bug")
        }
        self.root = root
        self.components = components
    }

    package var name: String { components[components.count - 1] }

    /// The path of the first `count` components, for messages.
    package func path(_ count: Int) -> String {
        ([root.standardizedFileURL.path] + components.prefix(count)).joined(separator: "/")
    }

    package var path: String { path(components.count) }

    /// Opens the folder that holds the file; with `create`, makes missing folders (0755, whatever the
    /// umask). Returns nil when a folder is missing and `create` is false. The caller closes the result.
    package func openFolder(create: Bool) throws(OutputError) -> Int32? {
        guard var folder = try Self.openRoot(root, create: create) else { return nil }
        for (index, component) in components.dropLast().enumerated() {
            let next: Int32?
            do {
                next = try Self.openFolder(component, in: folder, create: create, path: path(index + 1))
            } catch {
                close(folder)
                throw error
            }
            close(folder)
            guard let next else { return nil }
            folder = next
        }
        return folder
    }

    /// Opens a configured folder itself (which may be a link); with `create`, makes it and its parents.
    static func openRoot(_ root: URL, create: Bool) throws(OutputError) -> Int32? {
        var folder = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder < 0, errno == ENOENT {
            guard create else { return nil }
            try AtomicFile.createFolder(root)
            folder = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard folder >= 0 else { throw failure(root.standardizedFileURL.path) }
        return folder
    }

    /// Opens the real folder `name` inside the open folder `folder`, never through a link; with `create`,
    /// makes it (0755; `fixMode` says whether the umask may have taken bits off). Returns nil when it
    /// is missing and `create` is false. `path` names it in errors.
    package static func openFolder(
        _ name: String, in folder: Int32, create: Bool, fixMode: Bool = true, path: @autoclosure () -> String
    ) throws(OutputError) -> Int32? {
        var next = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if next < 0, errno == ENOENT, create {
            let made = mkdirat(folder, name, 0o755) == 0
            if made || errno == EEXIST {
                next = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if next >= 0, made, fixMode { fchmod(next, 0o755) }
            }
        }
        if next < 0 {
            let error = errno
            if error == ENOENT, !create { return nil }
            throw explain(path(), in: folder, name: name, errno: error, wantFolder: true)
        }
        return next
    }

    /// The type bits of what the last component names (not following a link), or nil when nothing is there.
    package func kind(in folder: Int32) -> mode_t? {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return status.st_mode & mode_t(S_IFMT)
    }

    /// The error for a write to the file itself, when something other than a regular file is in its place.
    package func refuseUnlessFile(in folder: Int32) throws(OutputError) {
        if let kind = kind(in: folder), let error = Self.refusal(kind, path: path) { throw error }
    }

    /// Why a file cannot be written at `path` when something of type `kind` is there; nil for a regular file.
    package static func refusal(_ kind: mode_t, path: @autoclosure () -> String) -> OutputError? {
        switch kind {
        case mode_t(S_IFREG): nil
        case mode_t(S_IFLNK): link(path(), replaceWith: "a real file")
        case mode_t(S_IFDIR): OutputError(path: path(), reason: "a folder is in the way", cannotCreate: true, advice: "move it away")
        default: OutputError(path: path(), reason: "not a regular file", cannotCreate: true, advice: "move it away")
        }
    }

    /// A path that names a file below a folder as it is: relative, no empty, `.` or `..` component, no NUL.
    /// Anything else goes through `init`, which normalises it or refuses it.
    /// One pass over the bytes: a million-order rebuild asks it of 480,000 paths.
    package static func isPlain(_ path: String) -> Bool {
        // The component so far: its length in bytes, and how many of them are dots.
        var (length, dots) = (0, 0)
        func isName() -> Bool { length > 0 && !(length == dots && dots <= 2) }
        for byte in path.utf8 {
            switch byte {
            case 0: return false
            case UInt8(ascii: "/"):
                guard isName() else { return false }
                (length, dots) = (0, 0)
            default:
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return isName()
    }

    /// Says why `name` could not be opened in `folder`: a link, something in the way, or the system's reason.
    private static func explain(_ path: String, in folder: Int32, name: String, errno error: Int32, wantFolder: Bool) -> OutputError {
        var status = stat()
        if fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            let kind = status.st_mode & mode_t(S_IFMT)
            if kind == mode_t(S_IFLNK) { return Self.link(path, replaceWith: wantFolder ? "a real folder" : "a real file") }
            if wantFolder, kind != mode_t(S_IFDIR) {
                return OutputError(path: path, reason: "a file of that name is in the way", cannotCreate: true, advice: "move it away")
            }
        }
        return OutputError(path: path, reason: String(cString: strerror(error)), cannotCreate: true)
    }

    package static func link(_ path: String, replaceWith replacement: String) -> OutputError {
        OutputError(
            path: path, reason: "a symbolic link", cannotCreate: true,
            advice: "OrderPress never writes through a link inside its folders; replace it with \(replacement)")
    }

    package static func failure(_ path: String, cannotCreate: Bool = true) -> OutputError {
        OutputError(path: path, reason: String(cString: strerror(errno)), cannotCreate: cannotCreate)
    }
}
