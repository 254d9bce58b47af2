import Foundation
import Testing

@testable import OrderPressCatalogue
import OrderPressTestSupport

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
                    4,Tea,Ben,芒果綠茶,L,半糖,少冰,1,45杯,FALSE,ben-secret2
                    5,Tea,Gus,紅茶,M,無糖,正常冰,1,"4,50",FALSE,gus-secret

                    """,
            ], in: folder)
        return folder
    }

    static func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/" + path), encoding: .utf8)
    }

    @Test func aPersonWhoseOnlyRowWasRejectedIsOnTheIndexAndLinkedFromTheAttentionPage() throws {
        let site = Self.site(language: "en")
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
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
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        let page = try Self.read(site, "markdown/people/eve.md")
        #expect(page.contains(advice), "\(page)")
    }

    /// Issue 34, Deliver 4: a group page says how many of its rows were rejected and links the pages of the
    /// people they name, where each reads their rows and what to do; every link of the page resolves.
    @Test func theGroupPageLinksThePeopleOfItsRejectedRows() throws {
        let site = Self.site(language: "en")
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let group = try Self.read(site, "markdown/groups/tea.md")
        #expect(
            group.contains(
                "> ⚠ 3 rows of this group were rejected and are not counted. Their pages say why: [Eve](../people/eve.md), "
                    + "[Ben](../people/ben.md), [Gus](../people/gus.md). [See why](../attention.md)"), "\(group)")
        let html = try Self.read(site, "site/groups/tea.html")
        for person in ["eve", "ben", "gus"] { #expect(html.contains("<a href=\"../people/\(person).html\">"), "\(html)") }
        let links = try Self.links(in: html)
        #expect(links.count >= 5)
        for link in links {
            let target = site.appendingPathComponent("output/site/groups").appendingPathComponent(link).standardizedFileURL
            #expect(FileManager.default.fileExists(atPath: target.path), "\(link) leads nowhere")
        }
    }

    /// The relative links of an HTML page (no anchors are used: cmark-gfm makes no heading ids).
    static func links(in html: String) throws -> [String] {
        let href = try NSRegularExpression(pattern: #"href="([^"]*)""#)
        return href.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
            .filter { !$0.contains("://") && !$0.hasPrefix("#") }
    }

    /// Issue 34, Deliver 7: a rejected row's reason on the pages members read advises what a Form respondent
    /// can do — never to set `decimal_separator` or to put the currency in a currency column, which
    /// `check` still tells the organiser.
    @Test(arguments: [
        ("en", "price '45杯' is not a plain number: answer only the number, 45 — not counted; ask Amy or answer the form again"),
        ("zh-Hant", "價格「45杯」不是單純的數字：請只填數字 45——未計入；請詢問Amy，或重新填寫表單"),
        ("zh-Hans", "价格“45杯”不是单纯的数字：请只填数字 45——未计入；请询问Amy，或重新填写表单"),
        ("ja", "価格「45杯」は数字だけではありません。数字だけ（45）で回答してください。数えられていません。Amy さんに聞くか、フォームにもう一度回答してください"),
    ])
    func theAdviceFitsAFormInEachLanguage(language: String, line: String) throws {
        let site = Self.site(language: language)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        // As a reader sees it: Markdown escapes the punctuation.
        let ben = try Self.read(site, "markdown/people/ben.md").replacingOccurrences(of: "\\", with: "")
        #expect(ben.contains(line), "\(ben)")
        let catalogue = Labels.catalogue(for: language)
        for page in ["markdown/people/ben.md", "markdown/people/gus.md", "markdown/attention.md", "site/people/gus.html", "site/attention.html"] {
            let text = try Self.read(site, page).replacingOccurrences(of: "\\", with: "")
            for word in MemberReasonFixtures.organiserOnly[catalogue]! + MemberReasonFixtures.settings {
                #expect(!text.contains(word), "\(page) in \(language) shows '\(word)'")
            }
        }
        #expect(try Self.read(site, "markdown/people/gus.md").contains("4,50"))
        // The organiser's terminal keeps the organiser's advice.
        let check = try TestSupport.run(["check"], in: site, environment: TestSupport.fixedClock)
        let said = check.stdout + check.stderr
        #expect(said.contains("the currency belongs in the currency column"), "\(said)")
        #expect(said.contains("set decimal_separator = \",\" in [orders]"), "\(said)")
    }

    @Test func helpBuildTellsTheTruthAboutQuiet() throws {
        let help = try TestSupport.run(["help", "build"])
        let text = (help.stdout + help.stderr).replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("Print only news"), "\(text)")
        #expect(!text.contains("Print nothing on success"))
    }
}
