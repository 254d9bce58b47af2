import Foundation
import Testing
import OrderPressTestSupport


/// `orderpress init` and `orderpress serve`, run as a new user would: init, build with no flags, serve.
@Suite struct InitServeTests {
    /// A new site made by the binary in a folder that does not exist yet, inside a parent of its own.
    static func newSite(built: Bool = true) throws -> (parent: URL, site: URL) {
        let parent = TestSupport.temporaryFolder()
        let site = parent.appendingPathComponent("tea site/friday")
        let made = try TestSupport.run(["init", site.path], environment: TestSupport.fixedClock)
        #expect(made.status == 0, "\(made.stderr)")
        if built {
            let build = try TestSupport.run([], in: site, environment: TestSupport.fixedClock)
            #expect(build.status == 0, "\(build.stderr)")
        }
        return (parent, site)
    }

    @Test func initMakesASiteThatBuildsAtOnceInsideItsFolder() throws {
        let parent = TestSupport.temporaryFolder()
        let site = parent.appendingPathComponent("tea site/friday")
        let made = try TestSupport.run(["init", site.path], environment: TestSupport.fixedClock)
        #expect(made.status == 0)
        #expect(made.stderr == "")
        #expect(made.stdout == """
            Created a new site in \(site.path). Next:
              cd \(site.path) && orderpress build && orderpress serve
            then read \(site.path)/README.txt for what to edit first.

            """)

        let build = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(build.status == 0, "\(build.stderr)")
        // Every file in the two published folders was written by this first build.
        let published = Self.publishedFiles(in: site)
        #expect(build.stdout.hasPrefix(
            "8 orders, 0 rejected, 0 warnings · \(published) files written, 0 unchanged, 0 removed · first run: nothing to compare · 0 requests · "))
        let written = TestSupport.files(in: parent)
        #expect(written.allSatisfy { $0.hasPrefix("tea site/friday/") })
        #expect(written.contains("tea site/friday/output/site/groups/週五下午茶.html"))
        #expect(written.contains("tea site/friday/output/state/state.sqlite"))
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let groups = try #require(summary["groups"] as? [[String: Any]])
        // Team lunch: 36.75 of orders and its 3.00 delivery fee.
        #expect(groups.map { $0["total"] as? String } == ["250", "39.75"])
        #expect(groups.map { $0["converted"] as? [String: String] } == [["USD": "7.78"], ["USD": "39.75"]])
        #expect((summary["rates"] as? [String: Any])?["stale"] as? Bool == false)
    }

    @Test(arguments: [["init", "."], ["init", "nested/.."]])
    func initRefusesAFolderThatHoldsASiteAndChangesNothing(arguments: [String]) throws {
        let (_, site) = try Self.newSite()
        let before = try TestSupport.contents(of: site)
        let again = try TestSupport.run(arguments, in: site)
        #expect(again.status == 73)
        #expect(again.stdout == "")
        #expect(again.stderr == "orderpress: init: \(site.path) already holds orderpress.toml; nothing was changed; choose a new or empty folder\n")
        #expect(try TestSupport.contents(of: site) == before)
    }

    /// The built site over loopback: types, non-ASCII names, folders, and nothing outside the site
    /// folder, however the path is spelled. Run from another folder with --config; stopped by a signal.
    @Test(arguments: [SIGTERM, SIGINT])
    func serveAnswersTheBuiltSiteOnly(stopSignal: Int32) async throws {
        let (parent, site) = try Self.newSite()
        let root = site.appendingPathComponent("output/site")
        let manager = FileManager.default
        try manager.createSymbolicLink(at: root.appendingPathComponent("config.html"), withDestinationURL: site.appendingPathComponent("orderpress.toml"))
        try manager.createSymbolicLink(at: root.appendingPathComponent("state"), withDestinationURL: site.appendingPathComponent("output/state"))
        let server = try ServeProcess(["serve", "--config", "tea site/friday/orderpress.toml", "--port", "0"], in: parent)
        #expect(server.lines == ["Serving \(root.path) at http://127.0.0.1:\(server.port)/ (Ctrl-C stops)"])

        let pages: [(String, String, String)] = [
            ("/", "index.html", "text/html; charset=utf-8"),
            ("/index.html?from=feed", "index.html", "text/html; charset=utf-8"),
            ("/style.css", "style.css", "text/css; charset=utf-8"),
            ("/groups/%E9%80%B1%E4%BA%94%E4%B8%8B%E5%8D%88%E8%8C%B6.html", "groups/週五下午茶.html", "text/html; charset=utf-8"),
            ("/groups/%E9%80%B1%E4%BA%94%E4%B8%8B%E5%8D%88%E8%8C%B6.svg", "groups/週五下午茶.svg", "image/svg+xml"),
            ("/people/%E7%8E%8B%E5%B0%8F%E6%98%8E.html", "people/王小明.html", "text/html; charset=utf-8"),
            ("/feed.xml", "feed.xml", "application/xml; charset=utf-8"),
            ("/summary.json", "summary.json", "application/json"),
            ("/orders.csv", "orders.csv", "text/csv; charset=utf-8"),
        ]
        for (path, file, type) in pages {
            let answer = try await server.get(path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.type == type, "\(path)")
            #expect(answer.body == (try Data(contentsOf: root.appendingPathComponent(file))), "\(path)")
        }
        for path in [
            "/missing.html", "/groups/", "/%2e%2e/orderpress.toml", "/groups/%2E%2E/%2e%2e/%2e%2e/orderpress.toml",
            "/groups%2f..%2f..%2f..%2forderpress.toml", "/..%5c..%5c..%5corderpress.toml", "/config.html",
            "/state/snapshot.json", "/output/state/snapshot.json",
        ] {
            let answer = try await server.get(path)
            #expect(answer.status == 404, "\(path)")
            #expect(answer.body == Data("Not found\n".utf8), "\(path)")
        }
        for target in ["/../orderpress.toml", "/groups/../../../orderpress.toml", "/../../output/state/snapshot.json", "\\..\\orderpress.toml"] {
            #expect(try server.rawGet(target).status == 404, "\(target)")
        }
        let folder = try server.rawGet("/groups")
        #expect(folder.status == 301)
        #expect(folder.headers["location"] == "/groups/")

        let stopped = server.stop(stopSignal)
        #expect(stopped.status == 0)
        #expect(stopped.stderr == "")
    }

    /// Files in the built site's Markdown and site folders, but `status.json`, which the build writes apart (`SourceHealth`).
    static func publishedFiles(in site: URL) -> Int {
        ["output/markdown", "output/site"].map { TestSupport.files(in: site.appendingPathComponent($0)).filter { $0 != "status.json" }.count }.reduce(0, +)
    }

    @Test func serveBuildsFirstWithTheBuildFlag() async throws {
        let (_, site) = try Self.newSite(built: false)
        let server = try ServeProcess(["serve", "--build", "--port", "0"], in: site)
        #expect(server.lines.count == 2)
        #expect(server.lines.first?.hasPrefix("8 orders, 0 rejected, 0 warnings · \(Self.publishedFiles(in: site)) files written") == true)
        let index = try await server.get("/")
        #expect(index.body == (try Data(contentsOf: site.appendingPathComponent("output/site/index.html"))))
        #expect(server.stop().status == 0)
    }

    @Test func serveSaysToBuildFirst() throws {
        let (_, site) = try Self.newSite(built: false)
        let result = try TestSupport.run(["serve", "--port", "0"], in: site)
        #expect(result.status == 64)
        #expect(result.stderr == "orderpress: serve: \(site.path)/output/site does not exist yet; run `orderpress build` first, or `orderpress serve --build`\n")
    }

    @Test func serveRefusesAPortInUse() throws {
        let (_, site) = try Self.newSite()
        let first = try ServeProcess(["serve", "--port", "0"], in: site)
        let second = try TestSupport.run(["serve", "--port", "\(first.port)"], in: site)
        #expect(second.status == 75)
        #expect(second.stdout == "")
        #expect(second.stderr == "orderpress: serve: port \(first.port) on 127.0.0.1 is already in use; stop the other server or pass --port N\n")
        #expect(first.stop().status == 0)
    }
}
