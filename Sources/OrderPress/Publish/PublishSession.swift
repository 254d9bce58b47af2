import Crypto
import Foundation

/// One build's publishing, from `Publisher.begin` to `finish`: render hands it batches of files as they
/// are ready (from several threads if it likes), names the pages it did not render again because their
/// key matched (`keep`), and `finish` removes what is left over and records what was published.
///
/// A file is compared with what the last build recorded for it (size and modification time on disk,
/// SHA-256 of the bytes) and read back only when in doubt: no record, the file changed on disk since,
/// or written in the same clock tick as the manifest (like git's "racily clean" index entries, a file
/// edited within that tick could keep its size and time). Changed files are written atomically
/// (`AtomicFile.replace`; new ones `AtomicFile.create`), their folders opened once per session, never through a link (`OpenFolders`).
/// A folder the session makes inside one in place is filled under a hidden name, its new files written
/// straight in (`AtomicFile.createUnseen`), and renamed into place whole by `finish` (`OpenFolders.Hiding`).
public final class PublishSession: @unchecked Sendable {
    private let output: Configuration.OutputPaths
    private let manifestURL: URL
    private let dryRun: Bool
    private let parallel: Bool
    /// What the last build published, by path, with where each file is.
    private let previous: [Tree: [String: Recorded]]
    /// The same, in the manifest's order (its paths' bytes), so that an unchanged list is written without sorting it again.
    private let previousInOrder: [Tree: [Manifest.Entry]]
    /// Whether the last manifest is in this version's format: else it is rewritten even if nothing changed.
    private let previousIsCurrent: Bool
    /// The last manifest's modification time: an entry as new as that is in doubt.
    private let manifestModified: Int64
    private let folders: [Tree: OpenFolders]
    private let fixFileMode: Bool
    private let temporaryPrefix: String
    private let marker: UnfinishedMarker

    private let lock = NSLock()
    // Guarded by `lock`:
    private var entries: [Tree: [String: Manifest.Entry]] = [:]
    private var written: [Tree: [String]] = [:]
    private var unchanged = 0
    private var temporaryCount = 0

    /// The name of the `UnfinishedMarker` in the state folder.
    static let unfinishedMarker = "publishing"

    init(publisher: Publisher, previous: Manifest?, manifestModified: Int64?, dryRun: Bool) {
        output = publisher.output
        manifestURL = publisher.manifestURL
        self.dryRun = dryRun
        parallel = publisher.parallel
        previousInOrder = [.markdown: previous?.markdown ?? [], .site: previous?.site ?? []]
        previousIsCurrent = previous?.markdown.allSatisfy(\.isKnown) == true && previous?.site.allSatisfy(\.isKnown) == true
        self.manifestModified = manifestModified ?? .min
        let modes = dryRun ? (files: false, folders: false) : AtomicFile.umaskNarrowsModes()
        fixFileMode = modes.files
        let temporaryPrefix = "\(getpid())-"
        let marker = UnfinishedMarker(state: output.state, name: Self.unfinishedMarker)
        // A dry run makes no folder, hidden or not.
        let hiding = dryRun ? nil : OpenFolders.Hiding(prefix: temporaryPrefix, before: marker.make)
        folders = [
            .markdown: OpenFolders(root: output.markdown, fixMode: modes.folders, hiding: hiding),
            .site: OpenFolders(root: output.site, fixMode: modes.folders, hiding: hiding),
        ]
        self.temporaryPrefix = temporaryPrefix
        self.marker = marker
        let folders = folders
        self.previous = Dictionary(uniqueKeysWithValues: Tree.allCases.map { tree in
            (tree, Recorded.located(previous?[tree] ?? [], in: folders[tree]!))
        })
    }

    /// Removes the temporary files and hidden folders a killed build left; before the first file is
    /// published, and not while another step may be writing in the state folder. A dry run removes nothing.
    func sweepLeftovers() {
        guard !dryRun else { return }
        // The state folder holds few files, and snapshot, history and caches are written there outside
        // any session: it is always swept. The two published trees only after a publish that died.
        AtomicFile.removeLeftovers(below: output.state)
        if marker.isPresent {
            AtomicFile.removeLeftovers(below: output.markdown)
            AtomicFile.removeLeftovers(below: output.site)
        }
    }

    /// The URL of a published file. `isDirectory: false`: without it, Foundation asks the file system.
    private func url(_ path: String, in tree: Tree) -> URL {
        (tree == .markdown ? output.markdown : output.site).appendingPathComponent(path, isDirectory: false)
    }

    /// What the last build recorded for this file, if the file on disk is still that one (same size and
    /// modification time, and not in doubt); nil otherwise. Render skips a page whose key is unchanged.
    public func previous(_ tree: Tree, _ path: String) -> Manifest.Entry? {
        intact(tree, path)?.entry
    }

    /// `previous`, with where the file is.
    private func intact(_ tree: Tree, _ path: String) -> Recorded? {
        guard let recorded = previous[tree]?[path], recorded.folder >= 0 else { return nil }
        var status = stat()
        guard recorded.withName({ fstatat(recorded.folder, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0, isCurrent(recorded.entry, status)
        else { return nil }
        return recorded
    }

    /// Whether the file `status` describes is still the one `entry` recorded, and not in doubt.
    private func isCurrent(_ entry: Manifest.Entry, _ status: stat) -> Bool {
        entry.matches(status) && entry.modified < manifestModified
    }

    /// How many files the last build published, if every one of them is still there as it was
    /// published (and recorded in this version's manifest); nil otherwise. An unchanged rerun relies on it.
    public func intactCount() -> Int? {
        guard previousIsCurrent else { return nil }
        var count = 0
        for tree in Tree.allCases {
            for path in (previous[tree] ?? [:]).keys {
                guard self.previous(tree, path) != nil else { return nil }
                count += 1
            }
        }
        return count
    }

    /// A file render did not make again, because `previous` showed it intact with the same key: it stays
    /// as it is, and in the manifest.
    public func keep(_ path: String, in tree: Tree) {
        guard let entry = previous[tree]?[path]?.entry else { return }
        lock.withLock {
            entries[tree, default: [:]][path] = entry
            unchanged += 1
        }
    }

    private enum Outcome {
        case unchanged(Manifest.Entry)
        /// A file the last build did not publish, most likely absent: created without looking first.
        case create(OpenFolders.Place, ContentDigest)
        case write(OpenFolders.Place, ContentDigest)
        case written(Manifest.Entry)
        case failed(OutputError)
    }

    /// Compares each file with the last build's record or, when in doubt, with the bytes on disk, and
    /// writes those that changed. Safe to call from several threads at once; a batch is itself compared
    /// and written on several threads. A link, folder or anything but a file where a file goes is an
    /// error (exit 73) before anything of the batch is written; a dry run counts it as a write.
    public func publish(_ files: [OutputFile], in tree: Tree) throws(OutputError) {
        guard let folders = folders[tree] else { return }
        var outcomes = map(files.count) { index in compare(files[index], tree: tree, folders: folders) }
        if !dryRun, let error = outcomes.lazy.compactMap({ if case .failed(let error) = $0 { error } else { nil } }).first {
            throw error
        }
        let writes = outcomes.indices.filter { if case .unchanged = outcomes[$0] { false } else { true } }
        if !dryRun, !writes.isEmpty {
            let first = try reserveTemporaryNames(writes.count)
            // One thread: measured on 2 cores at 100,000 orders (24,008 files, 10,000 in one folder), a
            // first build's writes took 8.0 s on two threads against 2.7 s on one, the threads queueing
            // on the folder's lock for each create and rename. Comparing (hashing, reading) stays parallel.
            let results = map(writes.count, parallel: false) { index -> Outcome in
                let file = files[writes[index]]
                do throws(OutputError) {
                    switch outcomes[writes[index]] {
                    case .create(let place, let digest):
                        if let entry = try create(file, at: place, digest: digest, in: folders) { return .written(entry) }
                        // Something is there after all, or unnamed files cannot be made: as any other file.
                        switch compare(file, tree: tree, folders: folders, looking: true) {
                        case .write(let place, let digest):
                            return .written(try write(file, at: place, digest: digest, in: folders, temporary: first + index))
                        case let outcome: return outcome
                        }
                    case .write(let place, let digest):
                        return .written(try write(file, at: place, digest: digest, in: folders, temporary: first + index))
                    case let outcome: return outcome
                    }
                } catch {
                    return .failed(error)
                }
            }
            for (index, result) in zip(writes, results) { outcomes[index] = result }
        }
        lock.withLock {
            for (index, outcome) in zip(files.indices, outcomes) {
                switch outcome {
                case .unchanged(let entry):
                    entries[tree, default: [:]][entry.path] = entry
                    unchanged += 1
                case .written(let entry):
                    entries[tree, default: [:]][entry.path] = entry
                    written[tree, default: []].append(entry.path)
                case .write(let place, _), .create(let place, _):
                    // Only in a dry run, as the next case: listed, so that `finish` does not count it as stale.
                    entries[tree, default: [:]][place.path] = .unknown(place.path)
                    written[tree, default: []].append(place.path)
                case .failed:
                    // The real run would try to write it, and say why it cannot.
                    entries[tree, default: [:]][files[index].path] = .unknown(files[index].path)
                    written[tree, default: []].append(files[index].path)
                }
            }
        }
        for outcome in outcomes where !dryRun {
            if case .failed(let error) = outcome { throw error }
        }
    }

    /// Whether `file` must be written, without writing anything. A file the last build did not publish, in a
    /// folder missing or made by this session, is not looked for (`create` finds out) unless `looking`.
    private func compare(_ file: OutputFile, tree: Tree, folders: OpenFolders, looking: Bool = false) -> Outcome {
        do throws(OutputError) {
            let place = try folders.place(of: file.path)
            let digest = ContentDigest(of: file.contents)
            if !looking, previous[tree]?[place.path] == nil, try folders.isNew(place.folder) { return .create(place, digest) }
            guard let folder = try folders.folder(place.folder, create: false) else { return .write(place, digest) }
            var status = stat()
            guard fstatat(folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { return .write(place, digest) }
                throw ContainedPath.failure(folders.path(place.path))
            }
            if let refusal = ContainedPath.refusal(status.st_mode & mode_t(S_IFMT), path: folders.path(place.path)) { throw refusal }
            let same = holdsAlready(digest, size: file.contents.count, status, place, tree) { Self.holds(file.contents, place.name, in: folder) }
            return same ? .unchanged(Manifest.Entry(path: place.path, status, sha256: digest, key: file.key, pieces: file.pieces)) : .write(place, digest)
        } catch {
            return .failed(error)
        }
    }

    /// A file made front to back into a temporary file beside where it goes, hashed as it is written,
    /// then compared as `publish` compares a file in memory: renamed into place when it differs,
    /// removed when it does not. A dry run writes nothing, not even that: it makes the file in memory.
    func publishStreamed(_ path: String, in tree: Tree, make: (ByteStream) -> FilePieces?) throws(OutputError) {
        guard !dryRun, let folders = folders[tree] else { return try publishInMemory(path, in: tree, make: make) }
        let place = try folders.place(of: path)
        let shown = folders.path(place.path)
        let folder = try folders.folder(madeAt: place.folder)
        let temporary = temporaryName(for: place, try reserveTemporaryNames(1))
        let descriptor = AtomicFile.createTemporary(temporary, in: folder)
        guard descriptor >= 0 else { throw ContainedPath.failure(shown) }
        var (open, renamed) = (true, false)
        defer {
            if open { close(descriptor) }
            if !renamed { unlinkat(folder, temporary, 0) }
        }
        let stream = FileStream(descriptor: descriptor)
        let pieces = make(stream)
        var made = stat()
        // The temporary file's mode must not depend on the umask: published files are world-readable.
        guard stream.finish(), !fixFileMode || fchmod(descriptor, 0o644) == 0, fstat(descriptor, &made) == 0 else {
            throw ContainedPath.failure(shown, cannotCreate: false)
        }
        open = false
        guard close(descriptor) == 0 else { throw ContainedPath.failure(shown, cannotCreate: false) }
        let digest = stream.digest
        var existing = stat()
        var same = false
        if fstatat(folder, place.name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
            if let refusal = ContainedPath.refusal(existing.st_mode & mode_t(S_IFMT), path: shown) { throw refusal }
            same = holdsAlready(digest, size: Int(made.st_size), existing, place, tree) { Self.digest(of: place.name, in: folder) == digest }
        } else if errno != ENOENT {
            throw ContainedPath.failure(shown)
        }
        if !same {
            TestHook.reached(.beforeRename)
            // renameat replaces the directory entry: had a link appeared at the name since the check
            // above, the link itself would be replaced, never the file it points to.
            guard renameat(folder, temporary, folder, place.name) == 0 else { throw ContainedPath.failure(shown, cannotCreate: false) }
            renamed = true
            TestHook.reached(.afterWrite)
        }
        let entry = Manifest.Entry(path: place.path, same ? existing : made, sha256: digest, key: nil, pieces: pieces)
        lock.withLock {
            entries[tree, default: [:]][place.path] = entry
            if same { unchanged += 1 } else { written[tree, default: []].append(place.path) }
        }
    }

    /// The SHA-256 of the regular file `name` in `folder`, read a few MB at a time; nil when it cannot be read.
    private static func digest(of name: String, in folder: Int32) -> ContentDigest? {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return ContentDigest(hash.finalize()) }
            buffer.withUnsafeBytes { hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Whether the regular file `name` in `folder` holds exactly `contents`. Any failure to read it is a
    /// "no": the file is then written, and a write that cannot succeed says why.
    private static func holds(_ contents: Data, _ name: String, in folder: Int32) -> Bool {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // One byte more than expected, to see a file that grew since it was looked at.
        var buffer = [UInt8](repeating: 0, count: contents.count + 1)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return filled == contents.count && (filled == 0 || contents.withUnsafeBytes { memcmp($0.baseAddress!, buffer, filled) == 0 })
    }

    /// Creates one file where the last build published none and returns its manifest entry; nil when it
    /// must be written as any other file (something is there, or the file system makes no unnamed files).
    /// In a folder not yet in place (see `OpenFolders.Hiding`) no reader can see it: written where it goes.
    private func create(
        _ file: OutputFile, at place: OpenFolders.Place, digest: ContentDigest, in folders: OpenFolders
    ) throws(OutputError) -> Manifest.Entry? {
        let folder = try folders.folder(madeAt: place.folder)
        let path = folders.path(place.path)
        let creation =
            try folders.isHidden(place.folder)
            ? AtomicFile.createUnseen(place.name, in: folder, with: file.contents, path: path, fixMode: fixFileMode)
            : AtomicFile.create(place.name, in: folder, with: file.contents, path: path, fixMode: fixFileMode)
        guard case .created(let status) = creation else { return nil }
        TestHook.reached(.afterWrite)
        return Manifest.Entry(path: place.path, status, sha256: digest, key: file.key, pieces: file.pieces)
    }

    /// Writes one file and returns its manifest entry.
    private func write(
        _ file: OutputFile, at place: OpenFolders.Place, digest: ContentDigest, in folders: OpenFolders, temporary: Int
    ) throws(OutputError) -> Manifest.Entry {
        let folder = try folders.folder(madeAt: place.folder)
        let status = try AtomicFile.replace(
            place.name, in: folder, with: file.contents,
            temporary: temporaryName(for: place, temporary),
            path: folders.path(place.path), fixMode: fixFileMode)
        TestHook.reached(.afterWrite)
        return Manifest.Entry(path: place.path, status, sha256: digest, key: file.key, pieces: file.pieces)
    }

    /// Whether the file on disk (`status`) already holds the `size` bytes whose SHA-256 is `digest`: by the
    /// last manifest's record while that is current, else by `reading` it, asked only when the sizes agree.
    private func holdsAlready(
        _ digest: ContentDigest, size: Int, _ status: stat, _ place: OpenFolders.Place, _ tree: Tree, reading: () -> Bool
    ) -> Bool {
        if let old = previous[tree]?[place.path]?.entry, isCurrent(old, status) { return old.sha256 == digest }
        return Int(status.st_size) == size && reading()
    }

    /// The name of temporary file `number` of this session, beside where `place` goes.
    private func temporaryName(for place: OpenFolders.Place, _ number: Int) -> String {
        ".\(place.name)\(AtomicFile.temporaryMarker)\(temporaryPrefix)\(number)"
    }

    /// Numbers for `count` temporary files; before the first, marks the publish as unfinished, durably,
    /// so that a build killed from then on has its temporary files swept by the next one.
    private func reserveTemporaryNames(_ count: Int) throws(OutputError) -> Int {
        try marker.make()
        lock.lock()
        defer { lock.unlock() }
        defer { temporaryCount += count }
        return temporaryCount
    }

    /// Removes the files of the last manifest that this build neither published nor kept, records what
    /// was published (durably, and only when that changed), and reports. A dry run only counts.
    public func finish() throws(OutputError) -> PublishReport {
        lock.lock()
        defer { lock.unlock() }
        var removed: [URL] = []
        var lists: [Tree: [Manifest.Entry]] = [:]
        var changed = !previousIsCurrent
        if !dryRun {
            // Before anything stale is removed, as any new file is.
            for tree in Tree.allCases { try folders[tree]?.putHiddenInPlace() }
        }
        // Both trees at once: 12,000 look-ups each at 100,000 orders, at the end of the build with a core idle.
        let (entries, previousInOrder, previous) = (entries, previousInOrder, previous)
        let comparisons = Parallel.map(Tree.allCases.count) { index in
            let tree = Tree.allCases[index]
            return Self.compared(entries[tree] ?? [:], with: previousInOrder[tree] ?? [], previous[tree] ?? [:])
        }
        for (tree, (list, stale, same)) in zip(Tree.allCases, comparisons) {
            (lists[tree], changed) = (list, changed || !same)
            for path in stale.filter(Publisher.isSafe).sorted() {
                if try remove(path, in: tree) { removed.append(url(path, in: tree)) }
            }
        }
        if !dryRun {
            if changed {
                let manifest = Manifest(markdown: lists[.markdown] ?? [], site: lists[.site] ?? [])
                try AtomicFile.write(manifest.encoded(), to: manifestURL, below: output.state, durable: true, newest: true)
            }
            marker.remove()
        }
        let writtenURLs = Tree.allCases.flatMap { tree in (written[tree] ?? []).sorted().map { url($0, in: tree) } }
        return PublishReport(written: writtenURLs, unchanged: unchanged, removed: removed)
    }

    /// This build's entries of one tree as a list, in the last manifest's order with new ones after; the paths
    /// of the last manifest this build has no entry for; and whether the two are the same. One pass in the
    /// manifest's order rather than comparing dictionaries and sorting 240,000 entries again.
    private static func compared(
        _ current: [String: Manifest.Entry], with previousList: [Manifest.Entry], _ previous: [String: Recorded]
    ) -> (list: [Manifest.Entry], stale: [String], same: Bool) {
        // A last manifest that lists a path twice is no order to keep.
        guard previousList.count == previous.count else {
            return (Array(current.values), previous.keys.filter { current[$0] == nil }, current == previous.mapValues(\.entry))
        }
        var list: [Manifest.Entry] = []
        list.reserveCapacity(current.count)
        var stale: [String] = []
        var same = true
        for old in previousList {
            if let entry = current[old.path] {
                list.append(entry)
                same = same && entry == old
            } else {
                stale.append(old.path)
                same = false
            }
        }
        if list.count < current.count {
            same = false
            list += current.values.filter { previous[$0.path] == nil }
        }
        return (list, stale, same)
    }

    /// Removes a stale file if it is there; true when it was (in a dry run: when it would be). Something
    /// other than a regular file there, or a link on the way, is an error, as for a write.
    private func remove(_ path: String, in tree: Tree) throws(OutputError) -> Bool {
        guard let folders = folders[tree] else { return false }
        do throws(OutputError) {
            let place = try folders.place(of: path)
            guard let folder = try folders.folder(place.folder, create: false) else { return false }
            var status = stat()
            guard fstatat(folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
            if dryRun { return true }
            if let refusal = ContainedPath.refusal(status.st_mode & mode_t(S_IFMT), path: folders.path(place.path)) { throw refusal }
            guard unlinkat(folder, place.name, 0) == 0 || errno == ENOENT else {
                throw ContainedPath.failure(folders.path(place.path), cannotCreate: false)
            }
            return true
        } catch {
            // A dry run says what the real run would try; the real run then says why it cannot.
            if dryRun { return true }
            throw error
        }
    }

    /// `transform` applied to 0..<count, on every core when `parallel`; `transform` must then be safe to
    /// call from several threads at once.
    private func map<T>(_ count: Int, parallel: Bool? = nil, _ transform: (Int) -> T) -> [T] {
        parallel ?? self.parallel ? Parallel.map(count, transform) : (0..<count).map(transform)
    }
}

/// Render hands its batches straight to the session, and asks it which pages it may keep.
extension PublishSession: PageSink {
    func publishedKey(of path: String, in tree: Tree) -> String? { previous(tree, path)?.key }

    /// The published file is opened now and read through that descriptor (never through a link), and
    /// only while it is still the file the manifest recorded with these pieces.
    func publishedPieces(of path: String, in tree: Tree) -> PublishedPieces? {
        guard let recorded = intact(tree, path), let pieces = recorded.entry.pieces, Int64(pieces.totalLength) == recorded.entry.size
        else { return nil }
        let file = PublishedFile(recorded.withName { openat(recorded.folder, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) })
        var status = stat()
        guard file.descriptor >= 0, fstat(file.descriptor, &status) == 0, isCurrent(recorded.entry, status) else { return nil }
        return PublishedPieces(pieces: pieces) { offset, buffer in file.read(offset, into: buffer) }
    }
}

extension PublishSession {
    /// A file the last build published: its record, and where it is, found once per entry rather than on each
    /// of the two or three questions render asks of every page a rerun keeps (`publishedKey`, `publishedPieces`).
    fileprivate struct Recorded {
        var entry: Manifest.Entry
        /// Its folder, open (owned by `OpenFolders`); -1 when that is missing or cannot be reached, or the path leaves the root.
        var folder: Int32 = -1
        /// Where its name starts in `entry.path` (a plain path), in bytes; or the name itself, for a path `OpenFolders` normalises.
        var nameOffset = 0
        var name: String?

        /// Calls `body` with the file's name as a C string, taken from the path itself: no copy of a name per entry.
        func withName<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
            if let name { return body(name) }
            return entry.path.withCString { body($0 + nameOffset) }
        }

        /// The last manifest's entries of one tree, by path (a path listed twice: the last one), each located once.
        /// The manifest lists a folder's files together (sorted by path), so each folder is looked up once.
        static func located(_ entries: [Manifest.Entry], in folders: OpenFolders) -> [String: Recorded] {
            var byPath: [String: Recorded] = [:]
            byPath.reserveCapacity(entries.count)
            var last: (folder: String, descriptor: Int32)?
            func descriptor(_ folder: Substring) -> Int32 {
                if let last, last.folder == folder { return last.descriptor }
                let found = (try? folders.folder(String(folder), create: false)) ?? -1
                last = (String(folder), found)
                return found
            }
            for entry in entries {
                var recorded = Recorded(entry: entry)
                let path = entry.path
                if ContainedPath.isPlain(path) {
                    let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
                    recorded.folder = descriptor(slash.map { path[..<$0] } ?? "")
                    recorded.nameOffset = slash.map { path.utf8.distance(from: path.utf8.startIndex, to: $0) + 1 } ?? 0
                } else if let place = try? folders.place(of: path) {
                    recorded.folder = descriptor(Substring(place.folder))
                    recorded.name = place.name
                }
                byPath[path] = recorded
            }
            return byPath
        }
    }
}

/// A published file open for reading, closed when the last reader lets it go.
private final class PublishedFile: Sendable {
    let descriptor: Int32

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Fills `buffer` from `offset`; false at the end of the file or on an error.
    func read(_ offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var filled = 0
        while filled < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            filled += count
        }
        return true
    }
}
