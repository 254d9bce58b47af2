import Foundation

/// Writes whole files atomically: a temporary file in the same folder, then a rename over the old one.
enum AtomicFile {
    /// Marks temporary files, so that a later run can recognise and remove what a killed run left.
    static let temporaryMarker = ".orderpress-tmp-"

    /// Writes `data` to `url` with mode 0644 (whatever the umask), creating folders (0755) as needed.
    /// With `durable`, the file is flushed to disk before it replaces the old one.
    static func write(_ data: Data, to url: URL, durable: Bool = false) throws(OutputError) {
        let folder = url.deletingLastPathComponent()
        try createFolder(folder)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent)\(temporaryMarker)\(getpid())")
        unlink(temporary.path)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(url, cannotCreate: true) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += result
            }
            return true
        }
        // The temporary file's mode must not depend on the umask: published files are world-readable.
        guard written, fchmod(descriptor, 0o644) == 0, !durable || fsync(descriptor) == 0 else {
            let error = failure(url, cannotCreate: false)
            unlink(temporary.path)
            throw error
        }
        closed = true
        guard close(descriptor) == 0 else {
            let error = failure(url, cannotCreate: false)
            unlink(temporary.path)
            throw error
        }
        TestHook.reached(.beforeRename)
        guard rename(temporary.path, url.path) == 0 else {
            let error = failure(url, cannotCreate: false)
            unlink(temporary.path)
            throw error
        }
        if durable {
            let folderDescriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folderDescriptor >= 0 {
                fsync(folderDescriptor)
                close(folderDescriptor)
            }
        }
    }

    /// Like `write`, but leaves the file (and its modification time) alone when it already holds `data`.
    static func writeIfChanged(_ data: Data, to url: URL, durable: Bool = false) throws(OutputError) {
        if FileManager.default.contents(atPath: url.path) == data { return }
        try write(data, to: url, durable: durable)
    }

    /// Creates `folder` and any missing parents with mode 0755, whatever the umask.
    static func createFolder(_ folder: URL) throws(OutputError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
        try createFolder(folder.deletingLastPathComponent())
        guard mkdir(folder.path, 0o755) == 0 else {
            let reason = errno == EEXIST ? "a file of that name is in the way" : String(cString: strerror(errno))
            throw OutputError(path: folder.path, reason: reason, cannotCreate: true)
        }
        chmod(folder.path, 0o755)
    }

    private static func failure(_ url: URL, cannotCreate: Bool) -> OutputError {
        OutputError(path: url.path, reason: String(cString: strerror(errno)), cannotCreate: cannotCreate)
    }
}
