import Foundation
import Testing

@testable import OrderPress

/// Every member can find their page and read advice they can follow: someone whose only row was rejected
/// is on the index (owing nothing, with ⚠) and linked from the Attention page, and the advice fits a
/// Form respondent, politely, in each language. Through the built binary.
@Suite struct MemberPagesTests {
    static let header = "id,group,orderer,drink,size,sugar,ice,quantity,price,paid,editCode"

    static func site(language: String) -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Tea"
                    language = "\(language)"
                    base_currency = "TWD"
                    [orders]
                    path = "orders.csv"
                    [groups]
                    path = "groups.csv"
                    """,
                "groups.csv": "group,organizer,shop,currency,deadline\nTea,Amy,Shop,TWD,\n",
                "orders.csv": """
                    \(header)
                    1,Tea,Amy,熟成紅茶,L,半糖,少冰,1,45,FALSE,amy-secret
                    2,Tea,Ben,珍珠奶茶,M,無糖,正常冰,1,50,FALSE,ben-secret
                    3,Tea,Eve,芒果綠茶,L,半糖,少冰,-1,45,FALSE,eve-secret

                    """,
            ], in: folder)
        return folder
    }

    static func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/" + path), encoding: .utf8)
    }

    @Test func aPersonWhoseOnlyRowWasRejectedIsOnTheIndexAndLinkedFromTheAttentionPage() throws {
        let site = Self.site(language: "en")
        let result = try TestSupport.run(["build"], in: site, environment: BinaryTests.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let index = try Self.read(site, "markdown/index.md")
        #expect(index.contains("| [⚠ Eve](people/eve.md) | 0 TWD | 0 TWD | 0 |"), "\(index)")
        let attention = try Self.read(site, "markdown/attention.md")
        #expect(attention.contains("| [Eve](people/eve.md) · 芒果綠茶 |"), "\(attention)")
        // The links lead to a page that exists, in both trees.
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site/people/eve.html").path))
        #expect(try Self.read(site, "site/index.html").contains("<a href=\"people/eve.html\">⚠ Eve</a>"))
        #expect(try Self.read(site, "site/attention.html").contains("<a href=\"people/eve.html\">Eve</a>"))
        // And it tells her what she can do: ask the organiser or answer the form again (not "fix it in the sheet").
        let page = try Self.read(site, "markdown/people/eve.md")
        #expect(page.contains("— not counted; ask Amy or answer the form again"), "\(page)")
        #expect(!page.contains("in the sheet"))
        #expect(!attention.contains("Fix them in the sheet"))
        #expect(attention.contains("If one is yours, ask the organiser or answer the form again"))
    }

    @Test(arguments: [
        ("ja", "数えられていません。Amy さんに聞くか、フォームにもう一度回答してください"),
        ("zh-Hant", "未計入；請詢問Amy，或重新填寫表單"),
        ("zh-Hans", "未计入；请询问Amy，或重新填写表单"),
    ])
    func theAdviceIsPoliteInEachLanguage(language: String, advice: String) throws {
        let site = Self.site(language: language)
        #expect(try TestSupport.run(["build"], in: site, environment: BinaryTests.fixedClock).status == 0)
        let page = try Self.read(site, "markdown/people/eve.md")
        #expect(page.contains(advice), "\(page)")
    }

    @Test func helpBuildTellsTheTruthAboutQuiet() throws {
        let help = try TestSupport.run(["help", "build"])
        let text = (help.stdout + help.stderr).replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("Print only news"), "\(text)")
        #expect(!text.contains("Print nothing on success"))
    }
}
