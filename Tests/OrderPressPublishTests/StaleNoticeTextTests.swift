import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressPublish
import OrderPressTestSupport

/// Where `StaleNotice` puts its block in a page, and that taking it out gives the page back byte for byte,
/// whatever the page looks like (a custom template may have no title, or no blank line after it).
@Suite struct StaleNoticeTextTests {
    static let notice = StaleNotice(
        Configuration.OutputPaths(markdown: URL(fileURLWithPath: "/m"), site: URL(fileURLWithPath: "/s"), state: URL(fileURLWithPath: "/t")),
        markdown: "> ⚠ **Not updated since 2026-11-21 18:10 (Asia/Taipei): …**\n",
        html: "<blockquote>\n<p>⚠ <strong>Not updated since …</strong></p>\n</blockquote>\n")

    @Test(arguments: [
        ("# Tea\n\nData as of …\n", "# Tea\n\n> ⚠ **Not updated since 2026-11-21 18:10 (Asia/Taipei): …**\n\nData as of …\n"),
        // No blank line after the title: the quote would swallow the next line, so it goes on top.
        ("# Tea\nData as of …\n", "> ⚠ **Not updated since 2026-11-21 18:10 (Asia/Taipei): …**\n\n# Tea\nData as of …\n"),
        ("Tea\n=====\n", "> ⚠ **Not updated since 2026-11-21 18:10 (Asia/Taipei): …**\n\nTea\n=====\n"),
        ("", "> ⚠ **Not updated since 2026-11-21 18:10 (Asia/Taipei): …**\n\n"),
    ])
    func markdownPages(page: String, noticed: String) {
        #expect(Self.notice.inserted(into: page, tree: .markdown) == noticed)
        #expect(Self.notice.removed(from: noticed, tree: .markdown) == page)
    }

    @Test(arguments: [
        ("<body>\n<main>\n<h1>Tea</h1>\n<p>x</p>\n", "<body>\n<main>\n<h1>Tea</h1>\n<blockquote>\n<p>⚠ <strong>Not updated since …</strong></p>\n</blockquote>\n<p>x</p>\n"),
        ("<body>\n<main>\n<p>x</p>\n", "<body>\n<main>\n<blockquote>\n<p>⚠ <strong>Not updated since …</strong></p>\n</blockquote>\n<p>x</p>\n"),
        ("<p>x</p>", "<blockquote>\n<p>⚠ <strong>Not updated since …</strong></p>\n</blockquote>\n<p>x</p>"),
    ])
    func htmlPages(page: String, noticed: String) {
        #expect(Self.notice.inserted(into: page, tree: .site) == noticed)
        #expect(Self.notice.removed(from: noticed, tree: .site) == page)
    }

    /// Every page that shows money: the index, each group's pages (its further order pages too) and each
    /// person's page; nothing else.
    @Test(arguments: [
        ("index.md", ".md", true), ("groups/tea.md", ".md", true), ("groups/tea.html", ".html", true),
        ("groups/tea--2.md", ".md", true), ("groups/tea/x.md", ".md", false), ("groups-2.md", ".md", false), ("groups/tea.svg", ".md", false), ("people/amy.md", ".md", true), ("people/amy/x.md", ".md", false),
        ("changes.md", ".md", false), ("archive/tea/2026-11-21.html", ".html", false),
    ])
    func noticedPages(path: String, suffix: String, noticed: Bool) {
        #expect(StaleNotice.isNoticed(path, suffix: suffix) == noticed)
    }
}
