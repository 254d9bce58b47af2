import Foundation
import OrderPressRender
import OrderPressSupport

/// A new site that builds at once (`orderpress init DIR`): a commented configuration, sample data
/// as CSV, the default templates and a README.txt, all inside one folder.
public struct SiteScaffold: Sendable {
    /// Relative path → contents, in the order they are written.
    public let files: [(path: String, contents: String)]

    /// `clock` dates the sample data: `SOURCE_DATE_EPOCH` makes a scaffold reproducible.
    public init(clock: Clock) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: clock.now)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let day = "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))"
        let timestamp = "\(day) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        files = [
            ("orderpress.toml", StarterFiles.configuration()),
            ("README.txt", StarterFiles.readme),
            ("data/orders.csv", StarterFiles.orders(day: day)),
            ("data/groups.csv", StarterFiles.groups(day: day)),
            ("data/rates.json", StarterFiles.rates(timestamp: timestamp)),
        ] + DefaultTemplates.files.keys.sorted().map { ("templates/\($0)", DefaultTemplates.files[$0]!) }
    }

    /// The folder `init` was given as DIR; an empty or blank DIR is refused rather than taken for the
    /// current folder (`URL(fileURLWithPath: "")` is the current folder).
    public static func folder(named directory: String) throws(ScaffoldError) -> URL {
        guard directory.contains(where: { !$0.isWhitespace }) else { throw .noFolder(directory) }
        return URL(fileURLWithPath: directory)
    }

    /// Writes every file under `folder`, creating it (and its parents) when missing. Refuses, before
    /// writing anything, a folder that holds a configuration or any file of the scaffold; each file
    /// is created exclusively, so not even a file that appears meanwhile is overwritten.
    public func write(into folder: URL) throws(ScaffoldError) {
        if let kind = Self.kind(of: folder), kind != S_IFDIR, !Self.isLinkToFolder(folder) {
            throw .notAFolder(folder.path)
        }
        for (path, _) in files where Self.kind(of: folder.appendingPathComponent(path)) != nil {
            throw .occupied(folder: folder.path, file: path)
        }
        // A file, or a link, named like one of the scaffold's folders ("data") would stop the
        // writing halfway or send it outside the folder.
        let subfolders = Set(files.map { ($0.path as NSString).deletingLastPathComponent }).subtracting([""])
        for path in subfolders.sorted() {
            if let kind = Self.kind(of: folder.appendingPathComponent(path)), kind != S_IFDIR {
                throw .occupied(folder: folder.path, file: path)
            }
        }
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url, options: .withoutOverwriting)
            } catch {
                throw .cannotWrite(path: url.path, reason: IOFailure.reason(error))
            }
        }
    }

    /// The file type bits of whatever is at `url` without following a link (a dangling link
    /// counts), or nil when nothing is there.
    private static func kind(of url: URL) -> mode_t? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    /// The site folder itself may be a link to a folder, as the output folders may.
    private static func isLinkToFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
