import Foundation
import Testing

@testable import OrderPressSlugs
import OrderPressTestSupport

/// A page stays at its address: the slugs a build hands out are kept in the state, so a newcomer whose
/// name makes the same slug gets the suffix instead of taking the page of someone already published.
@Suite struct StableSlugTests {
    /// The sample with one more order, by `person`, appended to its sheet.
    static func addOrder(_ site: URL, id: String, person: String) throws {
        var rows = try DataTrustTests.sampleRows(site)
        var row = rows[0]
        (row["id"], row["orderer"], row["editCode"]) = (id, person, "")
        rows.append(row)
        try JSONSerialization.data(withJSONObject: rows).write(to: site.appendingPathComponent("data/orders.json"))
    }

    static func slugs(_ site: URL) throws -> [String: String] {
        let people = try #require(try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))["people"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: people.map { ($0["name"] as! String, $0["slug"] as! String) })
    }

    static func heading(_ site: URL, _ slug: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/markdown/people/\(slug).md"), encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test func aNewcomerDoesNotMoveAPublishedPage() throws {
        let site = try TestSupport.sampleSite()
        try Self.addOrder(site, id: "90", person: "q uinn")
        #expect(try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun).status == 0)
        #expect(try Self.slugs(site)["q uinn"] == "q-uinn")
        let before = try Self.slugs(site)

        try Self.addOrder(site, id: "91", person: "-q uinn")
        let build = try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun)
        #expect(build.status == 0, "\(build.stderr)")
        let after = try Self.slugs(site)
        for (name, slug) in before { #expect(after[name] == slug, "\(name)") }
        let newcomer = "q-uinn-\(Slugger.hash("-quinn", length: 6))"
        #expect(after["-q uinn"] == newcomer)
        #expect(try Self.heading(site, "q-uinn") == "# q uinn")
        #expect(try Self.heading(site, newcomer) == "# \\-q uinn")

        // From scratch with the same state: the same slugs and byte for byte the same pages.
        let again = try TestSupport.sampleSite()
        try Data(contentsOf: site.appendingPathComponent("data/orders.json")).write(to: again.appendingPathComponent("data/orders.json"))
        try FileManager.default.createDirectory(at: again.appendingPathComponent("output"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: site.appendingPathComponent("output/state"), to: again.appendingPathComponent("output/state"))
        #expect(try TestSupport.run(["build"], in: again, environment: DataTrustTests.secondRun).status == 0)
        #expect(try Self.slugs(again) == after)
        let pages = try TestSupport.contents(of: site.appendingPathComponent("output/markdown/people"))
        #expect(try TestSupport.contents(of: again.appendingPathComponent("output/markdown/people")) == pages)

        // From scratch without a state: today's assignment, the first name in order taking the plain slug.
        let fresh = try TestSupport.sampleSite()
        try Data(contentsOf: site.appendingPathComponent("data/orders.json")).write(to: fresh.appendingPathComponent("data/orders.json"))
        #expect(try TestSupport.run(["build"], in: fresh, environment: DataTrustTests.secondRun).status == 0)
        #expect(try Self.slugs(fresh)["-q uinn"] == "q-uinn")
        #expect(try Self.slugs(fresh)["q uinn"] == "q-uinn-\(Slugger.hash("quinn", length: 6))")
    }
}
