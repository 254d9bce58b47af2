import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressServe
import OrderPressTestSupport

@Suite struct SiteFilesTests {
    /// A built site beside its state folder and configuration, with links that lead out of the
    /// site folder; returns the folder and the site's lookup.
    static func site() throws -> (folder: URL, files: SiteFiles) {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write([
            "orderpress.toml": "base_currency = \"TWD\"\n[orders]\npath = \"orders.csv\"\n",
            "output/state/snapshot.json": "{}",
            "output/site/index.html": "<p>index",
            "output/site/style.css": "p {}",
            "output/site/feed.xml": "<feed/>",
            "output/site/summary.json": "{}",
            "output/site/orders.csv": "a,b",
            "output/site/groups/週五下午茶.html": "<p>tea",
            "output/site/groups/週五下午茶.svg": "<svg/>",
            "output/site/people/index.html": "<p>people",
            "output/site/.hidden.html": "hidden",
            "output/site/odd name.html": "<p>odd",
        ], in: folder)
        let site = folder.appendingPathComponent("output/site")
        let manager = FileManager.default
        try manager.createSymbolicLink(
            at: site.appendingPathComponent("config.html"), withDestinationURL: folder.appendingPathComponent("orderpress.toml"))
        try manager.createSymbolicLink(at: site.appendingPathComponent("state"), withDestinationURL: folder.appendingPathComponent("output/state"))
        try manager.createSymbolicLink(at: site.appendingPathComponent("up"), withDestinationURL: folder)
        try manager.createSymbolicLink(at: site.appendingPathComponent("tea.html"), withDestinationURL: site.appendingPathComponent("groups/週五下午茶.html"))
        let configuration = try ConfigurationLoader.load(from: folder.appendingPathComponent("orderpress.toml"))
        return (folder, try SiteFiles(configuration: configuration))
    }

    @Test(arguments: [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/index.html", "index.html", "text/html; charset=utf-8"),
        ("/index.html?x=1", nil, nil),  // a query is never part of the path handed in
        ("/style.css", "style.css", "text/css; charset=utf-8"),
        ("/feed.xml", "feed.xml", "application/xml; charset=utf-8"),
        ("/summary.json", "summary.json", "application/json"),
        ("/orders.csv", "orders.csv", "text/csv; charset=utf-8"),
        ("/groups/%E9%80%B1%E4%BA%94%E4%B8%8B%E5%8D%88%E8%8C%B6.html", "groups/週五下午茶.html", "text/html; charset=utf-8"),
        ("/groups/%E9%80%B1%E4%BA%94%E4%B8%8B%E5%8D%88%E8%8C%B6.svg", "groups/週五下午茶.svg", "image/svg+xml"),
        ("/odd%20name.html", "odd name.html", "text/html; charset=utf-8"),
        ("//style.css", "style.css", "text/css; charset=utf-8"),
        ("/people/", "people/index.html", "text/html; charset=utf-8"),
        ("/tea.html", "groups/週五下午茶.html", "text/html; charset=utf-8"),  // a link inside the site is fine
    ] as [(String, String?, String?)])
    func answersFilesOfTheSite(path: String, file: String?, type: String?) throws {
        let (folder, files) = try Self.site()
        let root = try #require(realpath(folder.appendingPathComponent("output/site").path, nil))
        defer { free(root) }
        let expected: SiteFiles.Lookup = file.map {
            .file(URL(fileURLWithPath: String(cString: root) + "/" + $0), contentType: type!)
        } ?? .notFound
        #expect(files.lookup(path) == expected)
    }

    @Test(arguments: [
        "/missing.html", "/groups/", "/groups/missing.html", "index.html", "",
        "/../orderpress.toml", "/groups/../../orderpress.toml", "/./index.html", "/groups/..",
        "/%2e%2e/orderpress.toml", "/%2E%2E/%2e%2e/orderpress.toml", "/groups%2f..%2f..%2forderpress.toml",
        "/groups%2F%E9%80%B1%E4%BA%94%E4%B8%8B%E5%8D%88%E8%8C%B6.html", "/..%5c..%5corderpress.toml",
        "/groups\\..\\..\\orderpress.toml", "/%5cetc%5cpasswd", "/index.html%00.css", "/%0a", "/%ZZ",
        "/.hidden.html", "/%2ehidden.html",
        "/config.html", "/state/snapshot.json", "/up/orderpress.toml", "/up/output/state/snapshot.json",
        "/output/state/snapshot.json",
    ])
    func answersNothingOutsideTheSite(path: String) throws {
        let (_, files) = try Self.site()
        #expect(files.lookup(path) == .notFound)
    }

    @Test(arguments: [("/people", "/people/"), ("//people", "/people/"), ("/%70eople", "/%70eople/")])
    func sendsAFolderWithoutItsSlashToTheSlash(path: String, location: String) throws {
        let (_, files) = try Self.site()
        #expect(files.lookup(path) == .redirect(location))
    }

    @Test func aSiteThatWasNeverBuiltIsAnError() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["orderpress.toml": "base_currency = \"TWD\"\n[orders]\npath = \"orders.csv\"\n"], in: folder)
        let configuration = try ConfigurationLoader.load(from: folder.appendingPathComponent("orderpress.toml"))
        let site = folder.appendingPathComponent("output/site").path
        #expect(throws: ServeError.siteMissing(site)) { try SiteFiles(configuration: configuration) }
        #expect(ServeError.siteMissing(site).exitStatus == .usage)
        #expect(ServeError.portInUse(8000).exitStatus == .tempFail)
    }

    @Test(arguments: [
        ("a.HTML", "text/html; charset=utf-8"), ("b.svg", "image/svg+xml"), ("c.png", "image/png"),
        ("d.md", "text/markdown; charset=utf-8"), ("e", "application/octet-stream"), ("f.exe", "application/octet-stream"),
    ])
    func contentTypes(name: String, type: String) {
        #expect(SiteFiles.contentType(of: name) == type)
    }
}
