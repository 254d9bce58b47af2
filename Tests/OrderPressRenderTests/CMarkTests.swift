import Foundation
import Testing

@testable import OrderPressRender
import OrderPressTestSupport

@Suite struct CMarkTests {
    /// The GFM spec's examples, as Debian ships them with cmark-gfm.
    static let examples: [String] = {
        let path = "/usr/share/doc/cmark-gfm/spec.txt.gz"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return [] }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var examples: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```````````````````````````````` example") {
                current = []
            } else if line == "." , current != nil {
                examples.append(current!.joined(separator: "\n").replacingOccurrences(of: "→", with: "\t") + "\n")
                current = nil
            } else if line.hasPrefix("````````````````````````````````") {
                current = nil
            } else {
                current?.append(line)
            }
        }
        return examples
    }()

    @Test func matchesTheCommandOnEverySpecExample() throws {
        #expect(Self.examples.count > 600, "spec examples not found: run make deps")
        let expected = try ReferenceCMark.commandLineOutput(Self.examples)
        var mismatches: [Int] = []
        for (index, example) in Self.examples.enumerated() where CMark.commandLine.html(from: Data(example.utf8)) != expected[index] {
            mismatches.append(index + 1)
        }
        #expect(mismatches == [])
    }

    @Test func parsingInParallelGivesTheSameResult() {
        let inputs = Array(repeating: "~~x~~ and www.example.com and | a | b |\n|---|---|\n| ~~c~~ | d |\n", count: 400)
        let expected = CMark.commandLine.html(from: inputs[0])
        let results = ResultBox(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            results.set(index, CMark.commandLine.html(from: inputs[index]))
        }
        #expect(results.all.allSatisfy { $0 == expected })
        #expect(expected.contains("<del>x</del>"))
    }

    /// cmark-gfm allocates from a bump arena per thread: pages from a few bytes to several
    /// mebibytes (allocations larger than a block, buffers that grow past several blocks, one long
    /// paragraph, a table of 40,000 rows), parsed two at a time, give what the cmark-gfm command
    /// gives with the system's malloc, and so does each small page after a huge one on its thread.
    @Test func pagesOfEverySizeThroughTheArenaMatchTheCommand() throws {
        let row = "| [王小明](people/x.md) | **35** | ~~old~~ *new* | `a|b` |\n"
        let pages = [
            "x", "# 標題\n\n" + String(repeating: "one long paragraph ", count: 100_000) + "[a link](a.md)",
            "| a | b | c | d |\n|---|--:|:-:|---|\n" + String(repeating: row, count: 40_000),
            String(repeating: "- item *x* ~~y~~\n", count: 20_000), "| a |\n|---|\n| b |\n",
        ]
        let inputs = pages + pages.reversed()
        let expected = try ReferenceCMark.commandLineOutput(inputs)
        let results = ResultBox(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            results.set(index, CMark.commandLine.html(from: inputs[index]))
        }
        #expect(results.all == expected.map { String(decoding: $0, as: UTF8.self) })
        #expect(expected.map(\.count).max()! > 4_000_000)
    }

    /// Site pages without a `~` parse without strikethrough and without the lock, in parallel with
    /// pages that take it: thousands of generated pages give the same HTML as serial parses with
    /// every extension under the lock.
    @Test func tildeFreePagesParsedInParallelMatchLockedSerialParses() {
        let pieces = [
            "| **a** | \\*b\\* | 35 |\n", "| [王小明](../people/x.md) | 1 \\| 2 | <b>x</b> |\n", "- ~~刪除 1 × 茶~~\n",
            "> note *em* `code`\n\n", "# 標題 \\# x\n\n", "| 1\\~2 | \\_a\\_ | www.example.com |\n", "| x_y_z | a*b | 5.75 |\n",
        ]
        var generator = SystemRandomNumberGenerator()
        let pages = (0..<3000).map { _ in
            "# p\n\n| a | b | c |\n|---|--:|---|\n"
                + (0..<Int.random(in: 1...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        var reference = CMark.site
        reference.parsesTildeFreeUnlocked = false
        let expected = pages.map { reference.html(from: $0) }
        let results = ResultBox(count: pages.count)
        DispatchQueue.concurrentPerform(iterations: pages.count) { index in
            results.set(index, CMark.site.html(from: pages[index]))
        }
        let mismatches = zip(results.all, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(mismatches == [])
        #expect(pages.contains { !$0.contains("~") } && pages.contains { $0.contains("~~") })
        #expect(expected.contains { $0.contains("<del>") })
    }

    @Test func sitePagesHaveNoAutolinkNoRawHTMLAndStyleAlignment() {
        let html = CMark.site.html(from: "mail foo@example.com, see www.example.com <b>bold</b>\n\n| n |\n|--:|\n| 1 |\n")
        #expect(!html.contains("<a"))
        #expect(html.contains("<!-- raw HTML omitted -->"))
        #expect(html.contains(#"<td style="text-align: right">1</td>"#))
        #expect(!html.contains("align=\""))
    }

    @Test(arguments: [
        ("groups/x.md", "groups/x.html"), ("../index.md", "../index.html"), ("a.md#top", "a.html#top"),
        ("https://x.example/a.md", "https://x.example/a.md"), ("x.svg", "x.svg"), ("/abs.md", "/abs.md"),
    ])
    func rewritesRelativeMarkdownLinks(target: String, expected: String) {
        #expect(CMark.site.html(from: "[t](\(target))") == "<p><a href=\"\(expected)\">t</a></p>\n")
    }
}

private final class ResultBox: @unchecked Sendable {
    private var values: [String]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: "", count: count) }
    func set(_ index: Int, _ value: String) { lock.withLock { values[index] = value } }
    var all: [String] { lock.withLock { values } }
}
