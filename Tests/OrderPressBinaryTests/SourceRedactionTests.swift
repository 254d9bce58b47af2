import FlyingFox
import Foundation
import Testing

@testable import OrderPressNotify
import OrderPressTestSupport

/// Everything that leaves the machine names a source by its `SourceDescription`, never its address: a
/// SheetDB API's id is its path (anyone with it reads and writes the sheet), a rates key may sit in the
/// path or the query, and a local path says whose machine the site is built on. Checked in what the
/// built binary prints, in `status.json` and in every published file.
@Suite struct SourceRedactionTests {
    static let apiID = "K7QX2M9WZP4A"
    static let ratesKey = "RKEY5518ZZ"
    static let queryKey = "QKEY9931YY"

    actor Service {
        var ordersStatus: Int?
        var ratesStatus: Int?
        func set(orders: Int?, rates: Int?) { (ordersStatus, ratesStatus) = (orders, rates) }
    }

    static func serve(_ site: URL, _ service: Service) throws -> LocalServer.Responder {
        let data = site.appendingPathComponent("data")
        let orders = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("orders.json"))) as? [[String: String]])
        let rates = try String(contentsOf: data.appendingPathComponent("rates.json"), encoding: .utf8)
        return { request, _ in
            switch request.path {
            case "/api/v1/\(Self.apiID)":
                // What SheetDB's free plan answers once the month's requests are spent.
                if let status = await service.ordersStatus { return Reply.status(status, headers: ["Retry-After": "0"]) }
                return Reply.page(of: orders, for: request)
            case "/key/\(Self.ratesKey)/capi.php":
                if let status = await service.ratesStatus { return Reply.status(status, headers: ["Retry-After": "0"]) }
                return Reply.text(rates)
            default:
                return Reply.status(404)
            }
        }
    }

    static func site(_ server: LocalServer) throws -> URL {
        let site = try TestSupport.sampleSite()
        let file = site.appendingPathComponent("orderpress.toml")
        let toml = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(
                of: "path = \"data/orders.json\"",
                with: "url = \"http://user:pw@\(server.host)/api/v1/\(Self.apiID)?sheet=orders\"\npage_size = 100\ntimeout_seconds = 5")
            .replacingOccurrences(
                of: "path = \"data/rates.json\"", with: "url = \"\(server.url("/key/\(Self.ratesKey)/capi.php?app_id=\(Self.queryKey)"))\"")
        try Data(toml.utf8).write(to: file)
        return site
    }

    /// The secrets, and the site's absolute folder, in no published file and no output.
    static func expectNoAddress(_ site: URL, outputs: [String]) throws {
        let secrets = [apiID, ratesKey, queryKey, "user:pw", site.standardizedFileURL.path, site.path]
        for tree in ["output/site", "output/markdown"] {
            for (path, bytes) in try TestSupport.contents(of: site.appendingPathComponent(tree)) {
                for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(tree)/\(path) holds \(secret)") }
            }
        }
        for output in outputs {
            for secret in secrets { #expect(!output.contains(secret), "\(output) holds \(secret)") }
        }
    }

    @Test func aQuotaSpentSheetAndAFailingFeedAreNamedByTheirHosts() async throws {
        let service = Service()
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try Self.site(server)
            let first = try await TestSupport.runDetached(["build"], in: site, environment: TestSupport.fixedClock)
            #expect(first.status == 0, "\(first.stderr)")

            // The rates feed fails: its warning reaches summary.json and the pages.
            await service.set(orders: nil, rates: 500)
            let cached = try await TestSupport.runDetached(["build"], in: site, environment: TestSupport.fixedClock)
            #expect(cached.status == 0, "\(cached.stderr)")
            let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
            #expect((summary["warnings"] as? [[String: Any]])?.compactMap { $0["message"] as? String }.contains {
                $0.hasPrefix("rates: \(server.host) answered HTTP 500 Internal Server Error; ")
            } == true)

            // Nothing in it depends on how many attempts the retries took (their jitter): a rerun with the
            // feed still failing writes no file, and a build from scratch publishes the same bytes.
            #expect(!(summary["warnings"] as? [[String: Any]] ?? []).contains { ($0["message"] as? String)?.contains("attempts") == true })
            let published = try HTTPBinaryTests.state(of: site.appendingPathComponent("output/site"))
            let rerun = try await TestSupport.runDetached(["build"], in: site, environment: TestSupport.fixedClock)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let after = try HTTPBinaryTests.state(of: site.appendingPathComponent("output/site"))
            #expect(after.keys.sorted() == published.keys.sorted())
            for (path, (data, date)) in published {
                #expect(after[path]?.0 == data, "\(path) changed")
                #expect(after[path]?.1 == date, "\(path) was touched")
            }

            // The sheet's quota is spent.
            await service.set(orders: 429, rates: nil)
            let failed = try await TestSupport.runDetached(["build"], in: site, environment: TestSupport.fixedClock)
            #expect(failed.status == 69)
            #expect(failed.stderr.hasPrefix("orderpress: fetch: orders: \(server.host) answered HTTP 429 Too Many Requests; "), "\(failed.stderr)")
            let status = try TestSupport.json(site.appendingPathComponent("output/site/status.json"))
            #expect((status["reason"] as? String)?.hasPrefix("fetch: orders: \(server.host) answered HTTP 429") == true, "\(status)")
            let check = try await TestSupport.runDetached(["check"], in: site, environment: TestSupport.fixedClock)
            let diff = try await TestSupport.runDetached(["diff"], in: site, environment: TestSupport.fixedClock)
            try Self.expectNoAddress(
                site, outputs: [first.stdout, first.stderr, cached.stdout, cached.stderr, failed.stdout, failed.stderr,
                                check.stdout, check.stderr, diff.stdout, diff.stderr])
        }
    }

    /// A local file's absolute path is not published: `status.json` names the file alone.
    @Test func aMissingLocalFileIsNamedWithoutItsFolder() throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        let file = site.appendingPathComponent("orderpress.toml")
        let absolute = site.appendingPathComponent("data/orders.json").standardizedFileURL.path
        try FileManager.default.moveItem(atPath: absolute, toPath: absolute + ".away")
        let toml = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "path = \"data/orders.json\"", with: "path = \"\(absolute)\"")
        try Data(toml.utf8).write(to: file)
        let failed = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(failed.status == 69)
        #expect(failed.stderr == "orderpress: fetch: orders: cannot read 'orders.json' (No such file or directory); check [orders] path in the configuration\n")
        let status = try TestSupport.json(site.appendingPathComponent("output/site/status.json"))
        #expect(status["reason"] as? String == "fetch: orders: cannot read 'orders.json' (No such file or directory); check [orders] path in the configuration")
        try Self.expectNoAddress(site, outputs: [failed.stdout, failed.stderr])
    }

    @Test(arguments: [
        ("fetch: orders: https://user:pw@sheetdb.io/api/v1/K7QX2M9WZP4A?key=abc answered 429",
         "fetch: orders: https://sheetdb.io answered 429"),
        ("rates: (http://127.0.0.1:8080/key/RKEY/capi.php) failed", "rates: (http://127.0.0.1:8080) failed"),
        ("orders: cannot read /home/amy/site/data/orders.csv (gone)", "orders: cannot read orders.csv (gone)"),
        ("orders: 'orders.csv' answered 5/5", "orders: 'orders.csv' answered 5/5"),
    ])
    func theStatusReasonKeepsHostsAndFileNamesOnly(_ reason: String, _ shown: String) {
        #expect(SourceHealth.redacted(reason) == shown)
    }
}
