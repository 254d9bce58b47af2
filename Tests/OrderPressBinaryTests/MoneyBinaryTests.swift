import Foundation
import Testing
import OrderPressTestSupport

/// Issue 24's money rules through the built binary, on the site `orderpress init` makes: Carol organises
/// "Team lunch" (her own curry unticked in the sheet), which has a 3.00 USD fee and Venmo details.
@Suite struct MoneyBinaryTests {
    /// `setting`: written in place of the starter file's commented `# organizer_settled = true` under `[rounds]`.
    static func initSite(_ setting: String = "") throws -> URL {
        let folder = TestSupport.temporaryFolder()
        let site = folder.appendingPathComponent("site")
        let made = try TestSupport.run(["init", site.path])
        #expect(made.status == 0, "\(made.stderr)")
        if !setting.isEmpty {
            let config = site.appendingPathComponent("orderpress.toml")
            let text = try String(contentsOf: config, encoding: .utf8)
            #expect(text.contains("# organizer_settled = true"))
            try Data(text.replacingOccurrences(of: "# organizer_settled = true", with: setting).utf8).write(to: config)
        }
        let built = try TestSupport.run(["build", "-q"], in: site, environment: TestSupport.fixedClock)
        #expect(built.status == 0, "\(built.stderr)")
        return site
    }

    static func text(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every published file's text, by path below the site folder (Markdown and HTML).
    static func pages(_ site: URL) throws -> [String: String] {
        var pages: [String: String] = [:]
        for folder in ["output/markdown", "output/site"] {
            let root = site.appendingPathComponent(folder)
            for path in TestSupport.files(in: root) where path.hasSuffix(".md") || path.hasSuffix(".html") {
                pages["\(folder)/\(path)"] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            }
        }
        return pages
    }

    @Test(arguments: ["", "organizer_settled = false"])
    func noPageAsksTheOrganiserToPayThemselves(setting: String) throws {
        let site = try Self.initSite(setting)
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let pages = try Self.pages(site)
        #expect(pages.count > 10)
        for (path, page) in pages {
            for organizer in ["Carol", "王小明"] where path.contains("people/\(organizer == "Carol" ? "carol" : organizer)") {
                #expect(!page.contains(" to \(organizer) for "), "\(path)")
            }
        }
        let carol = try Self.text(site, "output/markdown/people/carol.md")
        // She still pays 王小明 for her tea, with how to pay him beside it.
        #expect(carol.contains("- **35 TWD to 王小明 for 週五下午茶** · How to pay: LINE Pay\\: 王小明\n"))
    }

    @Test func feeSharesPaymentDetailsAndWhatEachOwes() throws {
        let site = try Self.initSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let group = try Self.text(site, "output/markdown/groups/team-lunch.md")
        #expect(group.contains("- How to pay: Venmo \\@carol\\-lunch\n"))
        #expect(group.contains("| Fee | | 3.00 |\n| **Total** (4 items, 3 orders) | | **39.75 USD** |\n"))
        #expect(group.contains("- Still to collect: **21.00 USD**\n"))
        // Carol's own curry is unticked in the sheet, yet paid: she organises the group.
        #expect(group.contains("| [Carol](../people/carol.md) | 10.50 | 10.50 | 0.00 | 1 |"))
        #expect(group.contains("| Carol | Chicken curry | 9.50 | ✓ |"))
        let ben = try Self.text(site, "output/markdown/people/ben.md")
        #expect(ben.contains("- **1.00 USD to Carol for Team lunch** · How to pay: Venmo \\@carol\\-lunch\n"))
        #expect(ben.contains("\nFee share: 1.00 USD\n\nTotal: 9.25 USD\n"))
        let index = try Self.text(site, "output/markdown/index.md")
        #expect(index.contains("| Person | Total | Owes | Orders |"))
        #expect(index.contains("| [Dave](people/dave.md) | 20.00 USD | 20.00 USD | 1 |"))

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let lunch = try #require((summary["groups"] as? [[String: Any]])?.first { $0["name"] as? String == "Team lunch" })
        #expect(lunch["fee"] as? String == "3" && lunch["discount"] as? String == "0")
        #expect(lunch["total"] as? String == "39.75" && lunch["outstanding"] as? String == "21")
        let people = try #require(lunch["people"] as? [[String: Any]])
        #expect(people.map { $0["name"] as? String } == ["Ben", "Carol", "Dave"])
        #expect(people.map { $0["fee_share"] as? String } == ["1", "1", "1"])
        #expect(people.map { $0["discount_share"] as? String } == ["0", "0", "0"])
        #expect(people.map { $0["outstanding"] as? String } == ["1", "0", "20"])
        #expect(people.map { $0["paid"] as? String } == ["8.25", "10.5", "0"])

        let bytes = try Data(contentsOf: site.appendingPathComponent("output/site/orders.csv"))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        let csv = String(decoding: bytes.dropFirst(3), as: UTF8.self)
        #expect(csv.hasPrefix("row,id,group,person,item,options,quantity,unit_price,currency,amount,time,note,paid,owed\r\n"))
        #expect(csv.contains(",Team lunch,Carol,Chicken curry,,1,9.5,USD,9.5,") && csv.contains(",,TRUE,0\r\n8,7,"))
        #expect(csv.contains(",Team lunch,Dave,Chicken curry,,2,9.5,USD,19,") && csv.hasSuffix(",,FALSE,19\r\n"))
    }
}
