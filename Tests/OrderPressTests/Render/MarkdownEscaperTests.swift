import Foundation
import Testing

@testable import OrderPress

@Suite struct MarkdownEscaperTests {
    static let hostile = [
        "a | b", "[x](javascript:alert(1))", "<script>alert(1)</script>", "`code`", "*em* _em_ **strong**",
        "~~gone~~ 5~10", "line\nbreak", "# heading", "- item", "1. item", "> quote", "![img](x.png)",
        "<https://evil.example>", "&amp; &#x3C;", "\\", "| --- |", "[ref]: https://evil.example", "a\u{0}b",
        "foo@example.com", "https://evil.example", "www.evil.example", "<img src=x onerror=alert(1)>", "===",
    ]

    /// Renders `text` in a table cell and in a paragraph with the site's cmark-gfm setup.
    static func render(_ text: String) -> String {
        let escaped = MarkdownEscaper.escape(text)
        return CMark.site.html(from: "| h |\n|---|\n| \(escaped) |\n\nPara \(escaped) end\n\n- \(escaped)\n")
    }

    @Test(arguments: hostile)
    func hostileTextStaysText(text: String) {
        let html = Self.render(text)
        // One table with one body cell, one paragraph, one list item: nothing else was made.
        for tag in ["<a", "<img", "<script", "<em", "<strong", "<code", "<del", "<h1", "<blockquote", "<ol", "<hr"] {
            #expect(!html.contains(tag), "\(tag) made from \(text.debugDescription): \(html)")
        }
        #expect(html.components(separatedBy: "<td>").count == 2)
        #expect(html.components(separatedBy: "<li>").count == 2)
    }

    @Test func theTextItselfIsShown() {
        #expect(Self.render("a | b").contains("<td>a | b</td>"))
        #expect(Self.render("<script>alert(1)</script>").contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"))
        #expect(Self.render("[x](javascript:alert(1))").contains("<td>[x](javascript:alert(1))</td>"))
        #expect(Self.render("line\nbreak").contains("<td>line break</td>"))
        #expect(Self.render("a\u{0}b").contains("<td>a\u{FFFD}b</td>"))
        #expect(MarkdownEscaper.escape("a\u{1B}]0;x\u{7}\u{202E}") == #"a\\u\{1B\}\]0;x\\u\{7\}\\u\{202E\}"#)
        #expect(Self.render("\u{1B}[2J\u{9B}").contains(#"<td>\u{1B}[2J\u{9B}</td>"#))
    }

    @Test func leavesReadableMarksBare() {
        #expect(MarkdownEscaper.escape("it's 50%, ok? a/b; \"q\"") == "it's 50%, ok? a/b; \"q\"")
        #expect(MarkdownEscaper.escape("a|b*c") == "a\\|b\\*c")
    }
}
