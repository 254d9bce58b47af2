import Foundation
import Testing

@testable import OrderPressConfig
import OrderPressTestSupport

/// Where the output folders may lie: never the state inside, equal to or around a published folder,
/// never two output folders overlapping, never a published folder holding the configuration or a source.
@Suite struct FolderLayoutTests {
    static func toml(markdown: String = "out/markdown", site: String = "out/site", state: String = "out/state", orders: String = "url = \"https://s/api\"") -> String {
        """
        [output]
        markdown = "\(markdown)"
        site = "\(site)"
        state = "\(state)"
        [orders]
        \(orders)
        """
    }

    static let stateWhy = "the snapshot and cached sources would be published or committed: give each a folder of its own"
    static let pagesWhy = "each would publish, commit or clean up the other's files: give each a folder of its own"

    /// The message for a layout, in a real folder (symbolic links resolved in its path).
    static func message(_ toml: String, in folder: URL) -> String? {
        do {
            _ = try TestSupport.configuration(toml, in: folder)
            return nil
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(!error.description.contains("\n"))
            return error.description
        }
    }

    @Test(arguments: [
        // (markdown, site, state, first key, relation, second key, why)
        ("out/markdown", "out/site", "out/site", "state", "out/site", "is the same folder as", "site", true),
        ("out/markdown", "out/site", "out/site/state", "state", "out/site/state", "is inside", "site", true),
        ("out/markdown", "out/site", "out", "state", "out", "contains", "markdown", true),
        ("out/markdown", "out/site", "out/markdown/.state", "state", "out/markdown/.state", "is inside", "markdown", true),
        ("out/site/../markdown", "out/site", "out/markdown/./", "state", "out/markdown", "is the same folder as", "markdown", true),
        ("out/pages", "out/pages", "out/state", "markdown", "out/pages", "is the same folder as", "site", false),
        ("out/site/md", "out/site", "out/state", "markdown", "out/site/md", "is inside", "site", false),
        ("out", "out/site", "state", "markdown", "out", "contains", "site", false),
    ])
    func overlappingOutputFoldersAreRefused(
        markdown: String, site: String, state: String, first: String, path: String, relation: String, second: String, isState: Bool
    ) throws {
        let folder = TestSupport.temporaryFolder()
        let real = FolderLayout.realPath(folder)
        #expect(Self.message(Self.toml(markdown: markdown, site: site, state: state), in: folder)
            == "orderpress.toml: 'output.\(first)' (\(real)/\(path)) \(relation) 'output.\(second)'; \(isState ? Self.stateWhy : Self.pagesWhy)")
    }

    @Test func aSiteThatIsALinkToTheStateFolderIsRefused() throws {
        let folder = TestSupport.temporaryFolder()
        let real = FolderLayout.realPath(folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("private/state"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("www"), withDestinationURL: folder.appendingPathComponent("private/state"))
        #expect(Self.message(Self.toml(site: "www", state: "private/state"), in: folder)
            == "orderpress.toml: 'output.state' (\(real)/private/state) is the same folder as 'output.site'; \(Self.stateWhy)")
        // A link to a folder around the state, and a state reached through a link inside the site.
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("up"), withDestinationURL: folder.appendingPathComponent("private"))
        #expect(Self.message(Self.toml(site: "up", state: "private/state"), in: folder)
            == "orderpress.toml: 'output.state' (\(real)/private/state) is inside 'output.site'; \(Self.stateWhy)")
        #expect(Self.message(Self.toml(site: "private", state: "up/state"), in: folder)
            == "orderpress.toml: 'output.state' (\(real)/private/state) is inside 'output.site'; \(Self.stateWhy)")
    }

    @Test func linkedFoldersThatLieApartAreFine() throws {
        let folder = TestSupport.temporaryFolder()
        let elsewhere = TestSupport.temporaryFolder()
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("www"), withDestinationURL: elsewhere)
        #expect(Self.message(Self.toml(site: "www", state: "out/state"), in: folder) == nil)
        #expect(Self.message(Self.toml(site: "www/site", state: "www/state"), in: folder) == nil)
    }

    @Test func theRootAndTheHomeFolderAreRefused() throws {
        let folder = TestSupport.temporaryFolder()
        #expect(Self.message(Self.toml(site: "/"), in: folder)
            == "orderpress.toml: 'output.site' is the file-system root; give it a folder of its own")
        #expect(Self.message(Self.toml(state: "/tmp/../"), in: folder)
            == "orderpress.toml: 'output.state' is the file-system root; give it a folder of its own")
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        try #require(FolderLayout.realPath(URL(fileURLWithPath: home)) != "/")
        #expect(Self.message(Self.toml(markdown: home, state: "/var/tmp/orderpress-state"), in: folder)
            == "orderpress.toml: 'output.markdown' is your home folder (\(FolderLayout.realPath(URL(fileURLWithPath: home)))); give it a folder of its own")
    }

    @Test func aPublishedFolderMustNotHoldTheConfigurationOrASource() throws {
        let folder = TestSupport.temporaryFolder()
        let real = FolderLayout.realPath(folder)
        // The site in the configuration's own folder would publish orderpress.toml (the sheet's API address).
        #expect(Self.message(Self.toml(markdown: "../md-\(UUID().uuidString)", site: ".", state: "../state-\(UUID().uuidString)"), in: folder)
            == "orderpress.toml: 'output.site' (\(real)) holds the configuration file (\(real)/orderpress.toml), which would be published or committed; move one of them")
        // The orders file holds edit codes in plain text: never published, never committed.
        #expect(Self.message(Self.toml(markdown: "data", orders: "path = \"data/orders.json\""), in: folder)
            == "orderpress.toml: 'output.markdown' (\(real)/data) holds the file of 'orders.path' (\(real)/data/orders.json), which would be published or committed; move one of them")
        let groups = Self.toml(site: "out/site", orders: "path = \"o.json\"\n[groups]\npath = \"out/site/groups.csv\"")
        #expect(Self.message(groups, in: folder)
            == "orderpress.toml: 'output.site' (\(real)/out/site) holds the file of 'groups.path' (\(real)/out/site/groups.csv), which would be published or committed; move one of them")
        #expect(Self.message(Self.toml(orders: "path = \"data/orders.json\""), in: folder) == nil)
    }
}
