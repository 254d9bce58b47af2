import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressRender
import OrderPressTestSupport

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

    /// Scalars that every branch of the escaping meets: plain ASCII and CJK, Markdown punctuation and
    /// the marks left bare, whitespace controls, NUL, ESC and DEL, C1, bidi controls, line separators,
    /// a BOM, joiners inside emoji, a combining accent, right-to-left letters.
    static let pool: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "|", "\\", "[", "]", "(", ")", "*", "_", "`", "~", "<", ">", "&", "#", "!", "%", "'", "\"", "/",
        "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{0}", "\u{1B}", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2067}", "\u{2028}",
        "\u{FEFF}", "\u{200B}", "\u{200D}", "\u{301}", "\u{E0067}", "王", "ア", "한", "م", "👩", "💻", "é",
    ]

    /// `withEscaped`, which the built-in pages write user text with, gives exactly the UTF-8 of
    /// `escape(_:)`, and both give what the escaping gave before it wrote bytes (`reference`).
    @Test func escapingIntoBytesMatchesTheString() async {
        let texts = Generator<String, Shrink.None<String>> { rng in
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &rng) { scalars.append(Self.pool.randomElement(using: &rng)!) }
            return String(scalars)
        }
        await propertyCheck(count: 2000, input: texts) { text in
            #expect(MarkdownEscaper.withEscaped(text) { Array($0) } == Array(MarkdownEscaper.escape(text).utf8), "\(text.debugDescription)")
            #expect(MarkdownEscaper.escape(text) == Self.reference(text), "\(text.debugDescription)")
        }
    }

    /// The escaping as it was written before it wrote bytes, scalar by scalar into a string.
    static func reference(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}": result.unicodeScalars.append(" ")
            case "\u{0}": result.unicodeScalars.append("\u{FFFD}")
            case _ where TerminalEscaper.needsEscape(scalar): result += reference(TerminalEscaper.escape(String(scalar)))
            default:
                if scalar.isASCII, "!#$&()*+-.:<=>@[\\]^_`{|}~".unicodeScalars.contains(scalar) { result += "\\" }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    @Test func leavesReadableMarksBare() {
        #expect(MarkdownEscaper.escape("it's 50%, ok? a/b; \"q\"") == "it's 50%, ok? a/b; \"q\"")
        #expect(MarkdownEscaper.escape("a|b*c") == "a\\|b\\*c")
    }
}
