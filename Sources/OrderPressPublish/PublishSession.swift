import Crypto
import Foundation
import OrderPressConfig
import OrderPressOutput
import OrderPressSupport

/// One build's publishing, from `Publisher.begin` to `finish`: render hands it batches of files as they
/// are ready (from several threads if it likes), names the files the reuse layer kept because their
/// key matched (`keep`; the keys come from this session's `PublishedFiles` side), and `finish` removes
/// what is left over and records what was published.
///
/// Nothing render hands over is visible before the end: each changed file is written whole under a
/// temporary name beside where it goes (on disk, never held in memory), and only once every file is
/// written (`prepare`) are they all renamed into place (`place`), with the new manifest, so that a write that
/// fails (a full disk, an I/O error) leaves the site as it was. Until `complete`, `rollBack` puts the old
/// files back: a build whose state cannot be committed after placing publishes nothing either.
/// `finish` is the three at once, for a publish without a state to commit.
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
    /// What the last build published, in the manifest's order, with where each file is and an index by path.
    private let previous: [OutputTree: PreviousTree]
    /// Whether the last manifest is in this version's format: else it is rewritten even if nothing changed.
    private let previousIsCurrent: Bool
    /// The last manifest's modification time: an entry as new as that is in doubt.
    private let manifestModified: Int64
    private let folders: [OutputTree: OpenFolders]
    private let fixFileMode: Bool
    private let temporaryPrefix: String
    private let marker: UnfinishedMarker

    /// The fingerprint of the inputs the last manifest's files were built from, if it recorded one.
    private let previousInputs: String?

    private let lock = NSLock()
    // Guarded by `lock`:
    /// This build's entries: the last manifest's kept as they are, by their place in it, and the others.
    private var entries: [OutputTree: Entries] = [:]
    private var written: [OutputTree: [String]] = [:]
    private var unchanged = 0
    private var temporaryCount = 0
    /// The files written under a temporary name, waiting for `place`; and how each was placed, in order.
    private var pending: [Pending] = []
    private var placements: [FilePlacement] = []
    /// What `prepare` decided; nil before it.
    private var prepared: Prepared?
    private var phase = Phase.publishing
    /// Whether something put in place could not be put back: the marker of an unfinished run must then stay.
    private var undoFailed = false

    /// The name of the `UnfinishedMarker` in the state folder.
    static let unfinishedMarker = "publishing"

    package init(publisher: Publisher, previous: Manifest?, manifestModified: Int64?, dryRun: Bool) {
        previousInputs = previous?.inputs
        output = publisher.output
        manifestURL = publisher.manifestURL
        self.dryRun = dryRun
        parallel = publisher.parallel
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
        self.previous = Dictionary(uniqueKeysWithValues: OutputTree.allCases.map { tree in
            (tree, PreviousTree(previous?[tree] ?? [], in: folders[tree]!))
        })
        entries = Dictionary(uniqueKeysWithValues: OutputTree.allCases.map { tree in (tree, Entries(previousCount: self.previous[tree]!.count)) })
    }

    /// Removes the temporary files and hidden folders a killed build left; before the first file is
    /// published, and not while another step may be writing in the state folder. A dry run removes nothing.
    package func sweepLeftovers() {
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
    private func url(_ path: String, in tree: OutputTree) -> URL {
        (tree == .markdown ? output.markdown : output.site).appendingPathComponent(path, isDirectory: false)
    }

    /// What the last build recorded for this file, if the file on disk is still that one (same size and
    /// modification time, and not in doubt); nil otherwise. The reuse layer keeps a file whose key is unchanged.
    public func previous(_ tree: OutputTree, _ path: String) -> Manifest.Entry? {
        intact(tree, path).map { previous[tree]!.recorded[$0].entry }
    }

    /// Where the last manifest lists the file at `path`, if it is still there as it recorded (see `previous`).
    private func intact(_ tree: OutputTree, _ path: String) -> Int? {
        guard let list = previous[tree], let index = list.index(of: path), intact(list.recorded[index]) else { return nil }
        return index
    }

    /// Whether the file of this record is still there as the record says. Its size and modification time
    /// (`fstatat`) are the proof: the session's own writes change both, and a file edited since changes the time.
    private func intact(_ recorded: Recorded) -> Bool {
        guard recorded.folder >= 0 else { return false }
        var status = stat()
        return recorded.withName({ fstatat(recorded.folder, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0 && isCurrent(recorded.entry, status)
    }

    /// Whether the file `status` describes is still the one `entry` recorded, and not in doubt.
    private func isCurrent(_ entry: Manifest.Entry, _ status: stat) -> Bool {
        entry.matches(status) && entry.modified < manifestModified
    }

    /// How many files the last build published, if every one of them is still there as it was
    /// published (and recorded in this version's manifest), they were built from inputs with the
    /// fingerprint `inputs`, and no publish was left unfinished (a failed or killed one may have left
    /// files no manifest lists); nil otherwise. An unchanged rerun relies on it.
    /// How many files the last manifest lists.
    package var recordedCount: Int {
        previous.values.reduce(0) { $0 + $1.count }
    }

    public func intactCount(builtFrom inputs: String? = nil) -> Int? {
        guard previousIsCurrent, previousInputs == inputs, !marker.isPresent else { return nil }
        var count = 0
        for tree in OutputTree.allCases {
            guard let list = previous[tree] else { continue }
            for index in list.recorded.indices where list.isLast(index) {
                guard intact(list.recorded[index]) else { return nil }
                count += 1
            }
        }
        return count
    }

    /// Files the reuse layer did not make again, because `previous` showed them intact with the same key: they
    /// stay as they are, and in the manifest. Each is found by where the last manifest lists it (`published`)
    /// when known, else by its path.
    package func keep(_ kept: [KeptFile], in tree: OutputTree) {
        guard let list = previous[tree] else { return }
        let indices = kept.compactMap { file in
            list.recorded.indices.contains(file.index) && list.isLast(file.index) && list.recorded[file.index].entry.path == file.path
                ? file.index : list.index(of: file.path)
        }
        lock.withLock {
            entries[tree]!.keep(indices)
            unchanged += indices.count
        }
    }

    /// Records this build's entry for a file. Called holding `lock`.
    private func record(_ entry: Manifest.Entry, in tree: OutputTree) {
        if let index = previous[tree]?.index(of: entry.path) { entries[tree]!.replace(index, with: entry) } else { entries[tree]!.add(entry) }
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
    public func publish(_ files: [OutputFile], in tree: OutputTree) throws(OutputError) {
        guard let folders = folders[tree] else { return }
        var outcomes = map(files.count) { index in compare(files[index], tree: tree, folders: folders) }
        if !dryRun, let error = outcomes.lazy.compactMap({ if case .failed(let error) = $0 { error } else { nil } }).first {
            throw error
        }
        let writes = outcomes.indices.filter { if case .unchanged = outcomes[$0] { false } else { true } }
        if !dryRun, !writes.isEmpty {
            let first = try reserveTemporaryNames(writes.count)
            // One thread: on two a first build's writes took about three times as long (docs/benchmarks.md),
            // the threads queueing
            // on the folder's lock for each create and rename. Comparing (hashing, reading) stays parallel.
            let results = map(writes.count, parallel: false) { index -> Outcome in
                let file = files[writes[index]]
                do throws(OutputError) {
                    switch outcomes[writes[index]] {
                    case .create(let place, let digest):
                        guard let entry = try create(file, at: place, digest: digest, in: folders) else {
                            return .written(
                                try write(file, at: place, digest: digest, in: folders, tree: tree, temporary: first + index, present: false))
                        }
                        if let entry { return .written(entry) }
                        // Something is there after all: as any other file.
                        switch compare(file, tree: tree, folders: folders, looking: true) {
                        case .write(let place, let digest):
                            return .written(try write(file, at: place, digest: digest, in: folders, tree: tree, temporary: first + index, present: true))
                        case let outcome: return outcome
                        }
                    case .write(let place, let digest):
                        return .written(try write(file, at: place, digest: digest, in: folders, tree: tree, temporary: first + index, present: true))
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
                    record(entry, in: tree)
                    unchanged += 1
                case .written(let entry):
                    record(entry, in: tree)
                    written[tree, default: []].append(entry.path)
                case .write(let place, _), .create(let place, _):
                    // Only in a dry run, as the next case: listed, so that `finish` does not count it as stale.
                    record(.unknown(place.path), in: tree)
                    written[tree, default: []].append(place.path)
                case .failed:
                    // The real run would try to write it, and say why it cannot.
                    record(.unknown(files[index].path), in: tree)
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
    private func compare(_ file: OutputFile, tree: OutputTree, folders: OpenFolders, looking: Bool = false) -> Outcome {
        do throws(OutputError) {
            let place = try folders.place(of: file.path)
            // A file made in pieces (`summary.json` in a dry run) is recorded as `publishStreamed` records it.
            let digest = file.pieces.flatMap { $0.contentDigest(of: file.contents) } ?? ContentDigest(of: file.contents)
            // Not in the root folder, even one this session made: only a folder not yet in place (see
            // `OpenFolders.Hiding`) cannot have gained a file meanwhile.
            if !looking, !place.folder.isEmpty, previous[tree]?.index(of: place.path) == nil, try folders.isNew(place.folder) { return .create(place, digest) }
            guard let folder = try folders.folder(place.folder, create: false) else { return .write(place, digest) }
            var status = stat()
            guard fstatat(folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { return .write(place, digest) }
                throw ContainedPath.failure(folders.path(place.path))
            }
            if let refusal = ContainedPath.refusal(status.st_mode & mode_t(S_IFMT), path: folders.path(place.path)) { throw refusal }
            let same = holdsAlready(digest, size: file.contents.count, status, place, tree) { Self.holds(file.contents, place.name, in: folder) }
            return same ? .unchanged(Manifest.Entry(path: place.path, status, sha256: digest, reuseKey: file.reuseKey, pieces: file.pieces)) : .write(place, digest)
        } catch {
            return .failed(error)
        }
    }

    /// A file made front to back into a temporary file beside where it goes, hashed as it is written,
    /// then compared as `publish` compares a file in memory: renamed into place when it differs,
    /// removed when it does not. A dry run writes nothing, not even that: it makes the file in memory.
    package func publishStreamed(_ path: String, in tree: OutputTree, make: (ByteStream) -> FilePieces?) throws(OutputError) {
        guard !dryRun, let folders = folders[tree] else { return try publishInMemory(path, in: tree, make: make) }
        let place = try folders.place(of: path)
        let shown = folders.path(place.path)
        let folder = try folders.folder(madeAt: place.folder)
        let number = try reserveTemporaryNames(1)
        let temporary = temporaryName(for: place, number)
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
        let digest = stream.digest(of: pieces)
        var existing = stat()
        var same = false
        if fstatat(folder, place.name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
            if let refusal = ContainedPath.refusal(existing.st_mode & mode_t(S_IFMT), path: shown) { throw refusal }
            same = Int(existing.st_size) == Int(made.st_size)
                && Self.sameBytes(temporary, place.name, in: folder, ranges: differing(digest, pieces, size: Int(made.st_size), existing, place, tree))
        } else if errno != ENOENT {
            throw ContainedPath.failure(shown)
        }
        if !same {
            if folders.isHidden(place.folder) {
                // No reader sees the folder yet (see `write`).
                guard renameat(folder, temporary, folder, place.name) == 0 else { throw ContainedPath.failure(shown, cannotCreate: false) }
            } else {
                // Left for `place`, which renames it over the file there.
                lock.withLock { pending.append(Pending(tree: tree, path: place.path, folder: folder, number: number, present: true)) }
            }
            renamed = true
            TestHook.reached(.afterWrite)
        }
        // Without a digest, one no file of these pieces has: the next build compares the bytes.
        let entry = Manifest.Entry(path: place.path, same ? existing : made, sha256: digest ?? ContentDigest(of: Data()), reuseKey: nil, pieces: pieces)
        lock.withLock {
            record(entry, in: tree)
            if same { unchanged += 1 } else { written[tree, default: []].append(place.path) }
        }
    }

    /// The parts of a streamed file of `size` bytes, made of `pieces`, that may differ from the file of the
    /// same size there (`existing`): none when the last manifest's record of it is current and has its digest;
    /// where the pieces differ from the recorded ones when it is current; else all of it (in doubt, or no record).
    private func differing(
        _ digest: ContentDigest?, _ pieces: FilePieces?, size: Int, _ existing: stat, _ place: OpenFolders.Place, _ tree: OutputTree
    ) -> [Range<Int>] {
        guard let old = previous[tree]?.entry(of: place.path), isCurrent(old, existing) else { return [0..<size] }
        if let digest, old.sha256 == digest { return [] }
        guard let pieces, pieces.hasKeys, let published = old.pieces, Int64(published.totalLength) == old.size else { return [0..<size] }
        return pieces.rangesDiffering(from: published)
    }

    /// Whether the regular files `first` and `second` in `folder` hold the same bytes in `ranges`, read a few
    /// MB at a time. Any failure to read is a "no".
    private static func sameBytes(_ first: String, _ second: String, in folder: Int32, ranges: [Range<Int>]) -> Bool {
        guard !ranges.isEmpty else { return true }
        let one = openat(folder, first, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard one >= 0 else { return false }
        defer { close(one) }
        let other = openat(folder, second, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard other >= 0 else { return false }
        defer { close(other) }
        let chunk = 1 << 20
        let size = min(chunk, ranges.map(\.count).max() ?? 0)
        var left = [UInt8](repeating: 0, count: size)
        var right = [UInt8](repeating: 0, count: size)
        func fill(_ descriptor: Int32, _ buffer: inout [UInt8], _ count: Int, at offset: Int) -> Bool {
            var filled = 0
            while filled < count {
                let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { return false }
                filled += read
            }
            return true
        }
        for range in ranges {
            var offset = range.lowerBound
            while offset < range.upperBound {
                let count = min(size, range.upperBound - offset)
                guard fill(one, &left, count, at: offset), fill(other, &right, count, at: offset), memcmp(left, right, count) == 0 else { return false }
                offset += count
            }
        }
        return true
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

    /// Creates one file where the last build published none, in a folder not yet in place (see
    /// `OpenFolders.Hiding`), where no reader can see it: written where it goes. Returns its manifest entry,
    /// or `.some(nil)` when something is at the name after all; nil when the folder is in sight (the file is
    /// then written under a temporary name, as any other).
    private func create(
        _ file: OutputFile, at place: OpenFolders.Place, digest: ContentDigest, in folders: OpenFolders
    ) throws(OutputError) -> Manifest.Entry?? {
        let folder = try folders.folder(madeAt: place.folder)
        guard folders.isHidden(place.folder) else { return nil }
        let creation = try AtomicFile.createUnseen(place.name, in: folder, with: file.contents, path: folders.path(place.path), fixMode: fixFileMode)
        guard case .created(let status) = creation else { return .some(nil) }
        TestHook.reached(.afterWrite)
        return Manifest.Entry(path: place.path, status, sha256: digest, reuseKey: file.reuseKey, pieces: file.pieces)
    }

    /// Writes one file under a temporary name beside where it goes, for `place` to rename, and returns its
    /// manifest entry. `present`: whether a file is likely at the name already.
    private func write(
        _ file: OutputFile, at place: OpenFolders.Place, digest: ContentDigest, in folders: OpenFolders, tree: OutputTree, temporary: Int,
        present: Bool
    ) throws(OutputError) -> Manifest.Entry {
        let folder = try folders.folder(madeAt: place.folder)
        let name = temporaryName(for: place, temporary)
        let status: stat
        if folders.isHidden(place.folder) {
            // No reader sees the folder yet: in place at once, and its descriptor may be another folder's
            // once `OpenFolders.putHiddenInPlace` has moved its files.
            status = try AtomicFile.replace(place.name, in: folder, with: file.contents, temporary: name, path: folders.path(place.path), fixMode: fixFileMode)
        } else {
            status = try AtomicFile.writeTemporary(name, in: folder, with: file.contents, path: folders.path(place.path), fixMode: fixFileMode)
            lock.withLock { pending.append(Pending(tree: tree, path: place.path, folder: folder, number: temporary, present: present)) }
        }
        TestHook.reached(.afterWrite)
        return Manifest.Entry(path: place.path, status, sha256: digest, reuseKey: file.reuseKey, pieces: file.pieces)
    }

    /// Whether the file on disk (`status`) already holds the `size` bytes whose SHA-256 is `digest`: by the
    /// last manifest's record while that is current, else by `reading` it, asked only when the sizes agree.
    private func holdsAlready(
        _ digest: ContentDigest, size: Int, _ status: stat, _ place: OpenFolders.Place, _ tree: OutputTree, reading: () -> Bool
    ) -> Bool {
        if let old = previous[tree]?.entry(of: place.path), isCurrent(old, status) { return old.sha256 == digest }
        return Int(status.st_size) == size && reading()
    }

    /// The name of temporary file `number` of this session, beside where `place` goes.
    private func temporaryName(for place: OpenFolders.Place, _ number: Int) -> String {
        temporaryName(place.name, number)
    }

    private func temporaryName(_ name: some StringProtocol, _ number: Int) -> String {
        ".\(name)\(AtomicFile.temporaryMarker)\(temporaryPrefix)\(number)"
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

    /// Ends the publishing of files: decides which files are stale and what the manifest says, writes the
    /// new manifest under a temporary name and records in the unfinished-run marker the files about to be
    /// created (see `UnfinishedMarker`). After this nothing is written but renames. `inputs`: the
    /// fingerprint of the inputs the files were built from (`BuildInputs`), recorded in the manifest.
    public func prepare(inputs: String?) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard phase == .publishing else { return }
        var lists: [OutputTree: [Manifest.Entry]] = [:]
        var changed = !previousIsCurrent || inputs != previousInputs
        // Both trees at once: 12,000 look-ups each at 100,000 orders, at the end of the build with a core idle.
        let (entries, previous) = (entries, previous)
        let comparisons = Parallel.map(OutputTree.allCases.count) { index in
            let tree = OutputTree.allCases[index]
            return Self.compared(entries[tree]!, with: previous[tree]!)
        }
        var stale: [Aside] = []
        var created: [OutputTree: [String]] = [:]
        for (tree, (list, listedStale, same)) in zip(OutputTree.allCases, comparisons) {
            (lists[tree], changed) = (list, changed || !same)
            // With the files an unfinished session recorded it was creating, that this one does not publish.
            let orphans = (marker.recorded[tree] ?? []).filter { previous[tree]?.index(of: $0) == nil && entries[tree]?.added[UTF8Key($0)] == nil }
            for path in Set(listedStale + orphans).filter(Publisher.isSafe).sorted() {
                stale.append(Aside(tree: tree, path: path))
            }
            // Only a file this session wrote can be new: a one-order rerun looks up a handful, not every entry.
            if !dryRun { created[tree] = (written[tree] ?? []).filter { previous[tree]?.index(of: $0) == nil } }
        }
        var manifest: PendingManifest?
        if !dryRun, changed {
            let encoded = Manifest(markdown: lists[.markdown] ?? [], site: lists[.site] ?? [], inputs: inputs).encoded()
            manifest = try writeManifest(encoded)
        }
        prepared = Prepared(stale: stale, manifest: manifest)
        phase = .prepared
        if !dryRun, !pending.isEmpty || !stale.isEmpty || manifest != nil || OutputTree.allCases.contains(where: { folders[$0]?.hasHidden == true }) {
            try marker.record(created)
        }
    }

    /// Renames every file written under a temporary name into place, the folders made hidden first, then
    /// sets the stale files aside and puts the new manifest in place. Fails whole: what it had put in place
    /// is put back before it throws. A dry run only counts the stale files that are there.
    public func place() throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard phase == .prepared, var prepared else { return }
        phase = .placed
        if dryRun {
            for (index, aside) in prepared.stale.enumerated() { prepared.stale[index].placed = exists(aside) }
            self.prepared = prepared
            return
        }
        do throws(OutputError) {
            // Before anything else: a new page may link into a new folder.
            for tree in OutputTree.allCases { try folders[tree]?.putHiddenInPlace() }
            placements.reserveCapacity(pending.count)
            for item in pending {
                let name = item.name
                let temporary = temporaryName(name, item.number)
                TestHook.reached(.beforeRename)
                switch FilePlacement.put(temporary, as: String(name), backup: temporary + Self.backupSuffix, in: item.folder, present: item.present) {
                case .success(let placement): placements.append(placement)
                case .failure(let failure):
                    let shown = folders[item.tree]?.path(item.path) ?? item.path
                    if let kind = failure.kind, let refusal = ContainedPath.refusal(kind, path: shown) { throw refusal }
                    throw OutputError(path: shown, reason: String(cString: strerror(failure.code)), cannotCreate: false)
                }
            }
            for index in prepared.stale.indices {
                if let aside = try setAside(prepared.stale[index], number: index) {
                    // Kept as it goes: `undo` puts back what was set aside before a failure.
                    prepared.stale[index] = aside
                    self.prepared = prepared
                }
            }
            TestHook.reached(.beforeManifest)
            if let manifest = prepared.manifest {
                TestHook.reached(.beforeRename)
                switch FilePlacement.put(manifest.temporary, as: Manifest.fileName, backup: manifest.temporary + Self.backupSuffix, in: manifest.folder, present: true) {
                case .success(let placement):
                    self.prepared?.manifest?.placement = placement
                    fsync(manifest.folder)
                case .failure(let failure):
                    throw OutputError(path: manifestURL.standardizedFileURL.path, reason: String(cString: strerror(failure.code)), cannotCreate: false)
                }
            }
        } catch {
            if !undo() { undoFailed = true }
            throw error
        }
    }

    /// Puts back the files `place` replaced or set aside, and the last manifest, last first: the state could
    /// not be committed. What this session wrote is then removed by `abandon`.
    public func rollBack() {
        lock.withLock { if !undo() { undoFailed = true } }
    }

    /// Removes what a failed publish wrote (its temporary files, hidden folders and manifest), putting back
    /// first what it had put in place. The marker of an unfinished publish goes too, unless an earlier
    /// run left it or something could not be undone: the next run then repairs the site. Does nothing
    /// after `complete`.
    public func abandon() {
        lock.lock()
        defer { lock.unlock() }
        guard !dryRun, phase != .completed, phase != .abandoned else { return }
        var clean = undo() && !undoFailed
        for item in pending {
            let temporary = temporaryName(item.name, item.number)
            if unlinkat(item.folder, temporary, 0) != 0, errno != ENOENT { clean = false }
        }
        if let manifest = prepared?.manifest {
            if unlinkat(manifest.folder, manifest.temporary, 0) != 0, errno != ENOENT { clean = false }
            close(manifest.folder)
            prepared?.manifest = nil
        }
        for tree in OutputTree.allCases { folders[tree]?.removeHidden() }
        phase = .abandoned
        if clean, !marker.wasPresent { marker.remove() }
    }

    /// Removes the old files `place` kept aside, and the marker of an unfinished publish, and reports: the
    /// state is committed (or there is none). A dry run only counts.
    public func complete() -> PublishReport {
        lock.lock()
        defer { lock.unlock() }
        var removed: [URL] = []
        for aside in prepared?.stale ?? [] where aside.placed {
            removed.append(url(aside.path, in: aside.tree))
            if !dryRun, let folder = aside.folder { unlinkat(folder, aside.backup, 0) }
        }
        if !dryRun, phase == .placed {
            for (item, placement) in zip(pending, placements) {
                let temporary = temporaryName(item.name, item.number)
                placement.complete(temporary, backup: temporary + Self.backupSuffix, in: item.folder)
            }
            if let manifest = prepared?.manifest {
                manifest.placement.complete(manifest.temporary, backup: manifest.temporary + Self.backupSuffix, in: manifest.folder)
                close(manifest.folder)
                prepared?.manifest = nil
            }
            marker.remove()
        }
        phase = .completed
        let writtenURLs = OutputTree.allCases.flatMap { tree in (written[tree] ?? []).sorted().map { url($0, in: tree) } }
        return PublishReport(written: writtenURLs, unchanged: unchanged, removed: removed)
    }

    /// Undoes `place`, last first; true when everything was put back. Called holding `lock`. A step that
    /// fails (a rename on a disk that is failing now and then) is tried again, after the others, up to
    /// `undoRetryDelays.count` more times: a site left half new is repaired only by the next run.
    private func undo() -> Bool {
        guard phase == .placed, !dryRun else { return true }
        phase = .prepared
        var steps: [() -> Bool] = []
        if let manifest = prepared?.manifest {
            steps.append {
                manifest.placement.undo(manifest.temporary, as: Manifest.fileName, backup: manifest.temporary + Self.backupSuffix, in: manifest.folder)
            }
            prepared?.manifest?.placement = .notPlaced
        }
        for (index, aside) in (prepared?.stale ?? []).enumerated().reversed() where aside.placed {
            if let folder = aside.folder { steps.append { renameat(folder, aside.backup, folder, aside.name) == 0 } }
            prepared?.stale[index].placed = false
        }
        for (item, placement) in zip(pending, placements).reversed() {
            let temporary = temporaryName(item.name, item.number)
            steps.append { placement.undo(temporary, as: String(item.name), backup: temporary + Self.backupSuffix, in: item.folder) }
        }
        placements = []
        for tree in OutputTree.allCases {
            if let folder = folders[tree] { steps.append { folder.hideAgain() } }
        }
        var failing = steps.filter { !$0() }
        for delay in Self.undoRetryDelays where !failing.isEmpty {
            usleep(delay)
            failing = failing.filter { !$0() }
        }
        return failing.isEmpty
    }

    /// Pauses before each new try of what could not be put back (microseconds).
    static let undoRetryDelays: [UInt32] = [10_000, 50_000, 200_000]

    /// Whether something `place` had put in place could not be put back, even tried again: the site may
    /// mix old and new files until the next run repairs it.
    public var leftUnrestored: Bool { lock.withLock { undoFailed } }

    /// Writes the manifest under a temporary name in the state folder, flushed to disk, for `place`.
    private func writeManifest(_ encoded: Data) throws(OutputError) -> PendingManifest {
        let target = try ContainedPath(manifestURL, below: output.state)
        guard let folder = try target.openFolder(create: true) else {
            throw OutputError(path: target.path, reason: String(cString: strerror(ENOENT)), cannotCreate: true)
        }
        do throws(OutputError) {
            try target.refuseUnlessFile(in: folder)
            let temporary = ".\(target.name)\(AtomicFile.temporaryMarker)\(temporaryPrefix)m"
            try AtomicFile.writeTemporary(temporary, in: folder, with: encoded, path: target.path, durable: true, newest: true)
            return PendingManifest(folder: folder, temporary: temporary)
        } catch {
            close(folder)
            throw error
        }
    }

    /// Moves a stale file aside under a temporary name, if it is there; then it, set aside. Something other
    /// than a regular file there, or a link on the way, is an error, as for a write.
    private func setAside(_ aside: Aside, number: Int) throws(OutputError) -> Aside? {
        guard let folders = folders[aside.tree] else { return nil }
        let place = try folders.place(of: aside.path)
        guard let folder = try folders.folder(place.folder, create: false) else { return nil }
        var status = stat()
        guard fstatat(folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        if let refusal = ContainedPath.refusal(status.st_mode & mode_t(S_IFMT), path: folders.path(place.path)) { throw refusal }
        let backup = ".\(place.name)\(AtomicFile.temporaryMarker)\(temporaryPrefix)s\(number)"
        TestHook.reached(.beforeRename)
        guard renameat(folder, place.name, folder, backup) == 0 else {
            if errno == ENOENT { return nil }
            throw ContainedPath.failure(folders.path(place.path), cannotCreate: false)
        }
        return Aside(tree: aside.tree, path: aside.path, placed: true, folder: folder, name: place.name, backup: backup)
    }

    /// Whether a stale file is there to remove (a dry run); a path that cannot be reached counts, as the real
    /// run would try it, and say why it cannot.
    private func exists(_ aside: Aside) -> Bool {
        guard let folders = folders[aside.tree] else { return false }
        do throws(OutputError) {
            let place = try folders.place(of: aside.path)
            guard let folder = try folders.folder(place.folder, create: false) else { return false }
            var status = stat()
            return fstatat(folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0
        } catch {
            return true
        }
    }

    /// Where the file that a placement replaced is kept where the file system cannot exchange (see `FilePlacement`).
    private static let backupSuffix = "-old"

    /// This build's entries of one tree as a list, in the last manifest's order with new ones after; the paths
    /// of the last manifest this build has no entry for; and whether the two are the same. One pass in the
    /// manifest's order, by place: no path of the 240,000 entries of a million-order site is hashed again.
    private static func compared(_ current: Entries, with previous: PreviousTree) -> (list: [Manifest.Entry], stale: [String], same: Bool) {
        let old = previous.recorded
        // A last manifest that lists a path twice is no order to keep: by path, the last listing of each.
        guard !previous.listsPathTwice else {
            var byPath: [UTF8Key: Manifest.Entry] = current.added
            for index in old.indices where previous.isLast(index) {
                if let entry = current.entry(at: index, old[index].entry) { byPath[UTF8Key(old[index].entry.path)] = entry }
            }
            let stale = old.indices.filter { previous.isLast($0) && current.entry(at: $0, old[$0].entry) == nil }.map { old[$0].entry.path }
            return (Array(byPath.values), stale, false)
        }
        var list: [Manifest.Entry] = []
        list.reserveCapacity(current.count)
        var stale: [String] = []
        var same = true
        for index in old.indices {
            if let entry = current.entry(at: index, old[index].entry) {
                list.append(entry)
                same = same && entry == old[index].entry
            } else {
                stale.append(old[index].entry.path)
                same = false
            }
        }
        if !current.added.isEmpty {
            same = false
            list += current.added.values
        }
        return (list, stale, same)
    }

    /// `transform` applied to 0..<count, on every core when `parallel`; `transform` must then be safe to
    /// call from several threads at once.
    private func map<T>(_ count: Int, parallel: Bool? = nil, _ transform: (Int) -> T) -> [T] {
        parallel ?? self.parallel ? Parallel.map(count, transform) : (0..<count).map(transform)
    }
}

/// Render hands its batches straight to the session.
extension PublishSession: PageSink {}

/// The reuse layer asks the session, from the last manifest, what it may keep (`PlanRunner`).
extension PublishSession: PublishedFiles {
    package func published(_ path: String, in tree: OutputTree) -> PublishedRecord? {
        guard let list = previous[tree], let index = list.index(of: path), intact(list.recorded[index]) else { return nil }
        return PublishedRecord(reuseKey: list.recorded[index].entry.reuseKey, index: index)
    }

    /// The published file is opened now and read through that descriptor (never through a link), and
    /// only while it is still the file the manifest recorded with these pieces.
    package func pieces(of path: String, in tree: OutputTree) -> PublishedPieces? {
        guard let index = intact(tree, path), case let recorded = previous[tree]!.recorded[index], let pieces = recorded.entry.pieces, Int64(pieces.totalLength) == recorded.entry.size
        else { return nil }
        let file = PublishedFile(recorded.withName { openat(recorded.folder, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) })
        var status = stat()
        guard file.descriptor >= 0, fstat(file.descriptor, &status) == 0, isCurrent(recorded.entry, status) else { return nil }
        return PublishedPieces(
            pieces: pieces, read: { offset, buffer in file.read(offset, into: buffer) },
            send: { offset, length, descriptor in file.send(offset, length, to: descriptor) })
    }
}

extension PublishSession {
    private enum Phase {
        case publishing, prepared, placed, completed, abandoned
    }

    /// A file written under a temporary name (see `temporaryName`), waiting to be put in place.
    fileprivate struct Pending {
        var tree: OutputTree
        var path: String
        /// Its folder, open (owned by `OpenFolders`).
        var folder: Int32
        var number: Int
        /// Whether a file is likely at the name already.
        var present: Bool

        var name: Substring {
            guard let slash = path.lastIndex(of: "/") else { return Substring(path) }
            return path[path.index(after: slash)...]
        }
    }

    /// A stale file, and where it was set aside once it is.
    fileprivate struct Aside {
        var tree: OutputTree
        var path: String
        var placed = false
        var folder: Int32?
        var name = ""
        var backup = ""
    }

    /// The new manifest, written under a temporary name in the state folder (`folder`, open).
    fileprivate struct PendingManifest {
        var folder: Int32
        var temporary: String
        var placement = FilePlacement.notPlaced
    }

    fileprivate struct Prepared {
        var stale: [Aside]
        var manifest: PendingManifest?
    }

    /// A file the last build published: its record, and where it is, found once per entry rather than on each
    /// of the two or three questions the reuse layer asks of every page a rerun keeps (`reuseKey`, `pieces`).
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

        /// The last manifest's entries of one tree, each located once. The manifest lists a folder's files
        /// together (sorted by path), so each folder is looked up once.
        static func located(_ entries: [Manifest.Entry], in folders: OpenFolders) -> [Recorded] {
            var last: (folder: String, descriptor: Int32)?
            func descriptor(_ folder: Substring) -> Int32 {
                if let last, last.folder == folder { return last.descriptor }
                let found = (try? folders.folder(String(folder), create: false)) ?? -1
                last = (String(folder), found)
                return found
            }
            return entries.map { entry in
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
                return recorded
            }
        }
    }

    /// The last manifest's entries of one tree, in its order, and where each path is listed (a path listed
    /// twice: the last place).
    fileprivate struct PreviousTree {
        let recorded: [Recorded]
        private let byPath: [UTF8Key: Int]

        init(_ entries: [Manifest.Entry], in folders: OpenFolders) {
            recorded = Recorded.located(entries, in: folders)
            var byPath: [UTF8Key: Int] = [:]
            byPath.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() { byPath[UTF8Key(entry.path)] = index }
            self.byPath = byPath
        }

        var count: Int { recorded.count }
        var listsPathTwice: Bool { byPath.count != recorded.count }

        func index(of path: String) -> Int? { byPath[UTF8Key(path)] }
        func entry(of path: String) -> Manifest.Entry? { index(of: path).map { recorded[$0].entry } }

        /// Whether `index` is where the path listed there is last listed (always, unless a path is listed twice).
        func isLast(_ index: Int) -> Bool {
            !listsPathTwice || byPath[UTF8Key(recorded[index].entry.path)] == index
        }
    }

    /// This build's entries of one tree: those of the last manifest kept as they were, marked by their place
    /// in it (no path hashed, no entry copied), those of its paths published again, by place, and new paths.
    fileprivate struct Entries {
        /// By place in the last manifest: what this build has for it.
        private var states: [State]
        /// The entries of the places `.replaced`.
        private var replaced: [Int: Manifest.Entry] = [:]
        private(set) var added: [UTF8Key: Manifest.Entry] = [:]
        private(set) var count = 0

        private enum State: UInt8 {
            case none, kept, replaced
        }

        init(previousCount: Int) { states = Array(repeating: .none, count: previousCount) }

        mutating func keep(_ indices: [Int]) {
            for index in indices {
                switch states[index] {
                case .none: count += 1
                case .kept: break
                case .replaced: replaced[index] = nil
                }
                states[index] = .kept
            }
        }

        mutating func replace(_ index: Int, with entry: Manifest.Entry) {
            if states[index] == .none { count += 1 }
            states[index] = .replaced
            replaced[index] = entry
        }

        mutating func add(_ entry: Manifest.Entry) {
            if added.updateValue(entry, forKey: UTF8Key(entry.path)) == nil { count += 1 }
        }

        /// This build's entry for the last manifest's entry `old` at `index`, if it has one.
        func entry(at index: Int, _ old: Manifest.Entry) -> Manifest.Entry? {
            switch states[index] {
            case .none: nil
            case .kept: old
            case .replaced: replaced[index]
            }
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

    /// Sends `length` bytes from `offset` into the file open at `target`, at its offset (`sendfile`); returns
    /// how many it sent, fewer at the end of the file or on an error.
    func send(_ offset: Int, _ length: Int, to target: Int32) -> Int {
        var position = off_t(offset)
        var sent = 0
        while sent < length {
            let count = sendfile(target, descriptor, &position, length - sent)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }
}
