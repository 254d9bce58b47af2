import Foundation
import OrderPressDiff
import OrderPressOutput
import OrderPressSupport

/// The files a build published, relative to the Markdown and site folders, each with what it was when
/// written: size, modification time, SHA-256 of its bytes, and the reuse key it was made with. It tells later
/// runs which files are theirs to remove, and which they need neither read back nor render again.
public struct Manifest: Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public var path: String
        /// -1 when unknown: a file listed by an older version, which must be compared by reading it.
        public var size: Int64
        /// Nanoseconds since 1970, as `lstat` gives them.
        public var modified: Int64
        public var sha256: ContentDigest
        /// A hash of the inputs the file was made from (`OutputFile.reuseKey`); nil when it had none.
        /// Stored as `key`.
        public var reuseKey: String?
        /// How the file divides into pieces render can copy (`OutputFile.pieces`); nil for most files.
        public var pieces: FilePieces?

        public init(path: String, size: Int64, modified: Int64, sha256: ContentDigest, reuseKey: String?, pieces: FilePieces? = nil) {
            self.path = path
            self.size = size
            self.modified = modified
            self.sha256 = sha256
            self.reuseKey = reuseKey
            self.pieces = pieces
        }

        private enum CodingKeys: String, CodingKey {
            case path, size, modified, sha256, pieces
            case reuseKey = "key"
        }

        /// The entry of the file `status` describes.
        package init(path: String, _ status: stat, sha256: ContentDigest, reuseKey: String?, pieces: FilePieces?) {
            self.init(
                path: path, size: Int64(status.st_size), modified: Self.nanoseconds(status.st_mtim), sha256: sha256, reuseKey: reuseKey, pieces: pieces)
        }

        /// A path listed without anything else known about it.
        static func unknown(_ path: String) -> Self {
            Entry(path: path, size: -1, modified: 0, sha256: emptyDigest, reuseKey: nil)
        }

        private static let emptyDigest = ContentDigest(of: Data())

        var isKnown: Bool { size >= 0 }

        /// Whether the file on disk, as `status` describes it, is still the one this entry recorded.
        func matches(_ status: stat) -> Bool {
            isKnown && status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) && Int64(status.st_size) == size
                && Self.nanoseconds(status.st_mtim) == modified
        }

        static func nanoseconds(_ time: timespec) -> Int64 {
            Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }
    }

    public var markdown: [Entry]
    public var site: [Entry]
    /// The fingerprint of the inputs the files were built from (`BuildInputs`): an unchanged rerun
    /// trusts the site only when this is the last snapshot's and its own. Nil from older versions.
    public var inputs: String?

    public init(markdown: [Entry], site: [Entry], inputs: String? = nil) {
        self.markdown = markdown
        self.site = site
        self.inputs = inputs
    }

    public subscript(tree: OutputTree) -> [Entry] {
        switch tree {
        case .markdown: markdown
        case .site: site
        }
    }

    static let fileName = StateFileCheck.manifestFileName
    /// The largest manifest read: a million orders' site lists about 240,000 files in 150–250 MB. A larger
    /// file is not one this program wrote, and is never held whole.
    static let maxBytes = 1 << 30
    static let version = 2

    /// The manifest as this version writes it, or as version 1 wrote it (two lists of paths, every
    /// file then unknown); nil for anything else.
    static func decode(_ data: Data) -> Manifest? {
        ManifestReader.read(data) ?? decodedByFoundation(data)
    }

    /// `decode` through JSONDecoder only: for what `ManifestReader` leaves, and to test it against.
    static func decodedByFoundation(_ data: Data) -> Manifest? {
        let decoder = JSONDecoder()
        if let stored = try? decoder.decode(Stored.self, from: data), stored.version == version {
            return Manifest(markdown: stored.markdown, site: stored.site, inputs: stored.inputs)
        }
        guard let old = try? decoder.decode(VersionOne.self, from: data) else { return nil }
        return Manifest(markdown: old.markdown.map(Entry.unknown), site: old.site.map(Entry.unknown))
    }

    /// One entry per line, in the order of the paths' bytes, so that the same files give the same bytes. Written by hand
    /// (`JSONEscaper`), straight into bytes: `JSONEncoder`, and then string interpolation per entry, were slow for the
    /// 240,000 entries of a million-order site, which a one-order change writes again.
    func encoded() -> Data {
        // The two lists on both cores (a one-order change at a million orders waits for this at the end of
        // the build), then joined in a buffer that becomes the `Data` without a copy.
        let lists = Parallel.map(OutputTree.allCases.count) { Self.encodedEntries(self[OutputTree.allCases[$0]]) }
        var out = ByteBuffer()
        out.append(Array("{\"version\": \(Self.version),\n".utf8))
        if let inputs {
            var line = Array("\"inputs\": ".utf8)
            JSONEscaper.append(inputs, to: &line)
            out.append(line + Array(",\n".utf8))
        }
        for (tree, list) in zip(OutputTree.allCases, lists) {
            out.append(Array("\"\(tree.rawValue)\": [".utf8))
            out.append(list)
            out.append(Array((tree == .site ? "\n]\n}\n" : "\n],\n").utf8))
        }
        return out.take()
    }

    /// One list's entries, one per line.
    private static func encodedEntries(_ entries: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = []
        // About 250 bytes a line (path, size, time, digest, key): grown a few times rather than a score.
        bytes.reserveCapacity(entries.count * 256)
        for (index, entry) in inPathOrder(entries).enumerated() {
            bytes += index == 0 ? firstEntry : nextEntry
            JSONEscaper.append(entry.path, to: &bytes)
            bytes += size
            append(entry.size, to: &bytes)
            bytes += modified
            append(entry.modified, to: &bytes)
            bytes += sha256
            entry.sha256.appendHex(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            if let key = entry.reuseKey {
                bytes += self.key
                JSONEscaper.append(key, to: &bytes)
            }
            if let pieces = entry.pieces {
                // Base64, as JSONDecoder reads `Data`.
                bytes += self.pieces
                bytes += pieces.packed.base64EncodedData()
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: "}"))
        }
        return bytes
    }

    private static let firstEntry = Array("\n{\"path\": ".utf8)
    private static let nextEntry = Array(",\n{\"path\": ".utf8)
    private static let size = Array(", \"size\": ".utf8)
    private static let modified = Array(", \"modified\": ".utf8)
    private static let sha256 = Array(", \"sha256\": \"".utf8)
    private static let key = Array(", \"key\": ".utf8)
    private static let pieces = Array(", \"pieces\": \"".utf8)

    /// `number` in decimal, as `String(number)` writes it.
    private static func append(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits a UInt64 may have
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// The entries in the order of their paths' UTF-8 bytes: String's `<` normalises every non-ASCII path
    /// it compares, and a million-order site has 100,000 pages named after people.
    /// Already in that order (a rebuild keeps the last manifest's), they are not sorted again.
    private static func inPathOrder(_ entries: [Entry]) -> [Entry] {
        func precedes(_ left: Entry, _ right: Entry) -> Bool {
            let ordered = left.path.utf8.withContiguousStorageIfAvailable { a in
                right.path.utf8.withContiguousStorageIfAvailable { b in
                    let common = memcmp(a.baseAddress!, b.baseAddress!, min(a.count, b.count))
                    return common != 0 ? common < 0 : a.count < b.count
                }
            }
            return (ordered ?? nil) ?? left.path.utf8.lexicographicallyPrecedes(right.path.utf8)
        }
        if zip(entries, entries.dropFirst()).allSatisfy({ precedes($0, $1) }) { return entries }
        return entries.sorted(by: precedes)
    }

    private struct Stored: Decodable {
        var version: Int
        var inputs: String?
        var markdown: [Entry]
        var site: [Entry]
    }

    /// `published.json` as versions before 2 wrote it.
    private struct VersionOne: Decodable {
        var markdown: [String]
        var site: [String]
    }
}
