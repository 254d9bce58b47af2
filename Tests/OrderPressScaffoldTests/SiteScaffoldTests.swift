import Foundation
import TOMLKit
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressRender
@testable import OrderPressScaffold
import OrderPressTestSupport

@Suite struct SiteScaffoldTests {
    static let clock = Clock(now: Date(timeIntervalSince1970: 1_795_255_200))  // 2026-11-21 10:00:00 UTC
    static let expectedFiles = [
        "README.txt", "data/groups.csv", "data/orders.csv", "data/rates.json", "orderpress.toml",
        "templates/archive.md.mustache", "templates/attention.md.mustache", "templates/changes.md.mustache", "templates/group.md.mustache", "templates/group_orders.md.mustache",
        "templates/groups.md.mustache", "templates/index.md.mustache", "templates/layout.html.mustache", "templates/moved.md.mustache",
        "templates/people.md.mustache", "templates/person.md.mustache", "templates/person_orders.md.mustache", "templates/rates.md.mustache", "templates/style.css",
        "templates/tombstone.md.mustache",
    ]

    @Test func writesEveryFileIntoAFolderItCreates() throws {
        let folder = TestSupport.temporaryFolder().appendingPathComponent("new/tea")
        try SiteScaffold(clock: Self.clock).write(into: folder)
        #expect(TestSupport.files(in: folder) == Self.expectedFiles)
        for (name, text) in DefaultTemplates.files {
            #expect(try String(contentsOf: folder.appendingPathComponent("templates/\(name)"), encoding: .utf8) == text)
        }
    }

    /// A new site closes finished rounds, says when its pages go stale, and its README shows cron and systemd.
    @Test func theStarterSiteClosesRoundsAndShowsCronAndSystemd() throws {
        let folder = TestSupport.temporaryFolder()
        try SiteScaffold(clock: Self.clock).write(into: folder)
        let configuration = try ConfigurationLoader.load(from: folder.appendingPathComponent("orderpress.toml"))
        #expect(configuration.rounds.closeAfterDeadline && configuration.rounds.organizerSettled)
        #expect(configuration.notify.staleAfterMinutes == 60 && configuration.notify.webhookURLEnvironmentVariable == nil)
        let readme = try String(contentsOf: folder.appendingPathComponent("README.txt"), encoding: .utf8)
        #expect(readme.contains("*/5 * * * * /usr/local/bin/orderpress build --quiet --config /path/to/orderpress.toml"))
        #expect(readme.contains("OnCalendar=*:0/5") && readme.contains("EnvironmentFile=/etc/orderpress/tea.env"))
    }

    @Test func acceptsAnEmptyFolderAndLeavesOtherFilesAlone() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["notes.txt": "mine"], in: folder)
        try SiteScaffold(clock: Self.clock).write(into: folder)
        #expect(TestSupport.files(in: folder) == (Self.expectedFiles + ["notes.txt"]).sorted())
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
    }

    @Test func theConfigurationKeepsEveryPathInsideTheFolder() throws {
        let folder = TestSupport.temporaryFolder()
        try SiteScaffold(clock: Self.clock).write(into: folder)
        let configuration = try ConfigurationLoader.load(from: folder.appendingPathComponent("orderpress.toml"))
        let inside = folder.standardizedFileURL.path + "/"
        let rates = try #require(configuration.rates)
        let groups = try #require(configuration.groups)
        var paths = [configuration.output.markdown, configuration.output.site, configuration.output.state]
        paths += [try #require(configuration.templates)]
        for location in [configuration.orders.location, groups.location, rates.source.location] {
            guard case .path(let url) = location else {
                Issue.record("\(location) is not a local file")
                continue
            }
            paths.append(url)
        }
        for url in paths {
            #expect(url.standardizedFileURL.path.hasPrefix(inside), "\(url.path)")
        }
        #expect(configuration.output.site.path == inside + "output/site")
        #expect(configuration.output.state.path == inside + "output/state")
    }

    /// "Every key is explained": each setting carries a comment on its own line. The lines found are
    /// every setting TOML reads from the file, each on a line of its own.
    @Test func everySettingOfTheConfigurationHasAComment() throws {
        let text = SiteScaffold(clock: Self.clock).files.first { $0.path == "orderpress.toml" }!.contents
        let settings = text.split(separator: "\n").filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && !trimmed.hasPrefix("[")
        }
        func settingCount(_ table: TOMLTable) -> Int {
            table.keys.reduce(0) { count, key in count + (table[key]?.table.map(settingCount) ?? 1) }
        }
        #expect(settings.count == settingCount(try TOMLTable(string: String(text))))
        for line in settings {
            #expect(line.contains(" # "), "\(line)")
        }
    }

    @Test func datesTheSampleDataFromTheClock() {
        let files = Dictionary(uniqueKeysWithValues: SiteScaffold(clock: Self.clock).files.map { ($0.path, $0.contents) })
        #expect(files["data/orders.csv"]!.hasPrefix(
            "id,time,group,orderer,drink,size,sugar,ice,quantity,price,currency,note,paid,editCode\n1,2026-11-21 09:15:00,週五下午茶,Amy,"))
        #expect(files["data/groups.csv"]!.contains("\n週五下午茶,王小明,春日茶屋,TWD,2026-11-21 14:00,LINE Pay: 王小明,,\n"))
        #expect(files["data/rates.json"]!.contains(#""USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 10:00:00"}"#))
    }

    @Test(arguments: ["orderpress.toml", "README.txt", "data/orders.csv", "templates/style.css"])
    func refusesAFolderHoldingAnyOfItsFilesAndChangesNothing(existing: String) throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write([existing: "mine"], in: folder)
        #expect(throws: ScaffoldError.occupied(folder: folder.path, file: existing)) {
            try SiteScaffold(clock: Self.clock).write(into: folder)
        }
        #expect(TestSupport.files(in: folder) == [existing])
        #expect(try String(contentsOf: folder.appendingPathComponent(existing), encoding: .utf8) == "mine")
    }

    @Test func refusesADanglingLinkWhereAFileWouldGo() throws {
        let folder = TestSupport.temporaryFolder()
        let target = TestSupport.temporaryFolder().appendingPathComponent("elsewhere.toml")
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("orderpress.toml"), withDestinationURL: target)
        #expect(throws: ScaffoldError.occupied(folder: folder.path, file: "orderpress.toml")) {
            try SiteScaffold(clock: Self.clock).write(into: folder)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func refusesAFileOrALinkNamedLikeOneOfItsFolders() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["data": "not a folder"], in: folder)
        #expect(throws: ScaffoldError.occupied(folder: folder.path, file: "data")) {
            try SiteScaffold(clock: Self.clock).write(into: folder)
        }
        #expect(TestSupport.files(in: folder) == ["data"])

        let other = TestSupport.temporaryFolder()
        let outside = TestSupport.temporaryFolder()
        try FileManager.default.createSymbolicLink(at: other.appendingPathComponent("templates"), withDestinationURL: outside)
        #expect(throws: ScaffoldError.occupied(folder: other.path, file: "templates")) {
            try SiteScaffold(clock: Self.clock).write(into: other)
        }
        #expect(TestSupport.files(in: outside).isEmpty)
    }

    @Test func refusesAFileInPlaceOfTheFolder() throws {
        let file = TestSupport.temporaryFolder().appendingPathComponent("site")
        try Data("x".utf8).write(to: file)
        #expect(throws: ScaffoldError.notAFolder(file.path)) {
            try SiteScaffold(clock: Self.clock).write(into: file)
        }
    }
}
