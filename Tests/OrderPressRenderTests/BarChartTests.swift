import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressRender
import OrderPressTestSupport

@Suite struct BarChartTests {
    /// The pool of `MarkdownEscaperTests`, with XML's own specials and noncharacters.
    static let pool: [Unicode.Scalar] = MarkdownEscaperTests.pool + ["\u{FFFE}", "\u{FFFF}", "\u{85}", "\u{2029}"]

    static func text(_ rng: inout any SeededRandomNumberGenerator, upTo count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...count, using: &rng) { scalars.append(pool.randomElement(using: &rng)!) }
        return String(scalars)
    }

    /// The chart written as bytes is, byte for byte, the chart as it was written before: lines
    /// interpolated into strings and joined (`reference`), for hostile titles, names and amounts.
    @Test func chartsWrittenAsBytesAreTheChartsWrittenAsText() async {
        let charts = Generator<BarChart, Shrink.None<BarChart>> { rng in
            let bars = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                BarChart.Bar(
                    label: Self.text(&rng, upTo: 30),
                    value: Decimal(sign: .plus, exponent: -Int.random(in: 0...2, using: &rng), significand: Decimal(Int.random(in: 0...100_000, using: &rng))),
                    valueText: Self.text(&rng, upTo: 8))
            }
            return BarChart(title: Self.text(&rng, upTo: 10), bars: bars, more: Bool.random(using: &rng) ? Self.text(&rng, upTo: 10) : nil)
        }
        await propertyCheck(count: 1500, input: charts) { chart in
            #expect(String(decoding: chart.svg(), as: UTF8.self) == Self.reference(chart))
        }
    }

    /// `XMLEscaper.escape` hands text with nothing to escape back as it is, and escapes the rest as
    /// it did scalar by scalar.
    @Test func escapingSkipsOnlyWhatNeedsNothing() async {
        let texts = Generator<String, Shrink.None<String>> { rng in Self.text(&rng, upTo: 12) }
        await propertyCheck(count: 3000, input: texts) { text in
            #expect(XMLEscaper.escape(text) == Self.referenceEscape(text), "\(text.debugDescription)")
            var bytes: [UInt8] = []
            XMLEscaper.appendEscaped(text, to: &bytes)
            #expect(bytes == Array(Self.referenceEscape(text).utf8))
        }
        #expect(XMLEscaper.escape("Tom & \"Amy\" <3 '\u{202E}'\u{FFFE}") == "Tom &amp; &quot;Amy&quot; &lt;3 &apos;\\u{202E}&apos;\u{FFFD}")
        #expect(XMLEscaper.escape("陳小明 6.25 USD") == "陳小明 6.25 USD")
    }

    /// `XMLEscaper.escape` as it was before it handed back text with nothing to escape: what the fast
    /// path is held to.
    static func referenceEscape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            case _ where TerminalEscaper.needsEscape(scalar): result += TerminalEscaper.escape(String(scalar))
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The chart as `BarChart.svg` wrote it before it wrote bytes.
    static func reference(_ chart: BarChart) -> String {
        let (width, valueWidth, rowHeight) = (400, 110, 42)
        let height = (chart.bars.count + (chart.more == nil ? 0 : 1)) * rowHeight + 8
        let plotWidth = width - valueWidth
        let largest = chart.bars.map(\.value).max() ?? 0
        let title = referenceEscape(chart.title)
        var lines = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" viewBox="0 0 \#(width) \#(height)" role="img" aria-label="\#(title)">"#,
            "<title>\(title)</title>",
            "<style>text{font:15px system-ui,sans-serif;fill:#1d1d1f}rect{fill:#0b63c5}"
                + "@media (prefers-color-scheme:dark){text{fill:#f5f5f7}rect{fill:#6cb4ff}}</style>",
        ]
        for (index, bar) in chart.bars.enumerated() {
            let y = 4 + index * rowHeight
            let length = max(largest > 0 ? BarChart.pixels(bar.value, of: largest, in: plotWidth) : 0, 1)
            lines.append(#"<text x="0" y="\#(y + 15)">\#(referenceEscape(Text.shortened(bar.label, to: 24)))</text>"#)
            lines.append(#"<rect x="0" y="\#(y + 20)" width="\#(length)" height="16"/>"#)
            lines.append(#"<text x="\#(length + 6)" y="\#(y + 34)">\#(referenceEscape(bar.valueText))</text>"#)
        }
        if let more = chart.more {
            lines.append(#"<text x="0" y="\#(4 + chart.bars.count * rowHeight + 15)">\#(referenceEscape(more))</text>"#)
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }
}
