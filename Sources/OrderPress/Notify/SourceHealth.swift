import Foundation

/// Whether the sources have been failing, remembered across runs, so that a cron run says a failure
/// once when it starts and once when it ends, not every five minutes; and `status.json` in the site,
/// which says the same to anyone who reads the site.
///
/// The record (`failing.json` in the state folder) is treated like a source cache: a failing run may
/// write it, while the snapshot and history stay exactly as they were. `status.json` is the one file
/// in the site that a failing run writes, and it is rewritten only when what it says changes: while a
/// source stays down, and on every healthy rerun, nothing is written. A site that has never failed has
/// no `status.json` yet; the first failure writes it (once the site exists), and it says `ok` again once
/// the sources recover.
public struct SourceHealth: Sendable {
    public var state: URL
    public var site: URL

    static let recordName = "failing.json"
    static let statusName = "status.json"

    public init(state: URL, site: URL) {
        self.state = state
        self.site = site
    }

    public init(_ output: Configuration.OutputPaths) {
        self.init(state: output.state, site: output.site)
    }

    /// A failure as the state keeps it: since when, which source, and its one-line message.
    struct Record: Codable, Equatable {
        var since: String
        var source: String?
        var reason: String
    }

    /// `status.json`: `{"state": "ok"}` or `{"reason": …, "since": …, "state": "failing"}`.
    struct Status: Codable, Equatable {
        var state: String
        var since: String?
        var reason: String?
    }

    var recordURL: URL { state.appendingPathComponent(Self.recordName) }
    var statusURL: URL { site.appendingPathComponent(Self.statusName) }

    /// A run whose sources failed with `reason` (already secret-free: source messages show URLs only as
    /// `URLRedactor` redacts them). True when this failure starts here, and is to be said.
    @discardableResult
    public func failed(source: String?, reason: String, now: Date) throws(OutputError) -> Bool {
        let known = record()
        let record = Record(since: known?.since ?? Timestamp.iso8601(now), source: source, reason: Self.redacted(reason))
        if record != known {
            try AtomicFile.createFolder(state)
            try AtomicFile.write(JSONOutput.encode(record), to: recordURL, below: state)
        }
        try writeStatus(Status(state: "failing", since: record.since, reason: record.reason))
        return known == nil
    }

    /// A run that succeeded. When the sources had been failing, the record is cleared, `status.json`
    /// says `ok`, and the line to say is returned ("orders source works again (failing since …)").
    public func succeeded() throws(OutputError) -> String? {
        guard let known = record() else { return nil }
        try writeStatus(Status(state: "ok"))
        try AtomicFile.remove(recordURL, below: state)
        let what = known.source.map { "\($0) source works" } ?? "the sources work"
        return "\(what) again (failing since \(known.since))"
    }

    /// The record, if a failure is going on. One that cannot be read counts as none: at worst a failure
    /// is said once more.
    func record() -> Record? {
        guard let data = try? AtomicFile.contents(of: recordURL, below: state) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// Not in a site that was never published: a failing first run creates no site folder.
    private func writeStatus(_ status: Status) throws(OutputError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: site.path, isDirectory: &isFolder), isFolder.boolValue else { return }
        let data = JSONOutput.encode(status)
        guard (try? AtomicFile.contents(of: statusURL, below: site)) != data else { return }
        try AtomicFile.write(data, to: statusURL, below: site)
    }

    /// A second line of defence for a message that shows the site to every reader: any URL in it
    /// loses its user, password and query (a key may ride in them). Messages are short; no per-row cost.
    static func redacted(_ reason: String) -> String {
        let words = reason.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.contains("://"), let url = URL(string: String(word.trimmingCharacters(in: CharacterSet(charactersIn: "(),;'\"")))),
                url.scheme != nil
            else { return String(word) }
            var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let hadSecret = parts?.query != nil || parts?.user != nil || parts?.password != nil || parts?.fragment != nil
            guard hadSecret else { return String(word) }
            parts?.query = nil
            parts?.user = nil
            parts?.password = nil
            parts?.fragment = nil
            return parts?.string.map { $0 + "?…" } ?? "…"
        }
        return words.joined(separator: " ")
    }
}
