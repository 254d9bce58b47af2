import Foundation
import OrderPressSupport

/// A horizontal bar chart as a standalone SVG file: one bar per person, the name above its bar and
/// the amount beside it. Narrow (400 units) and with names on their own line, so that on a 390-pixel
/// phone the text stays about as large as the page's own small print.
struct BarChart {
    struct Bar {
        package var label: String
        package var value: Decimal
        var valueText: String
    }

    package var title: String
    var bars: [Bar]
    /// A last line under the bars, "and 12 more people", when the chart leaves some out.
    var more: String? = nil

    private static let width = 400
    /// Room right of the longest bar for its amount.
    private static let valueWidth = 110
    private static let rowHeight = 42

    /// The chart as UTF-8. Written as bytes: one chart per group, a bar per person, and building it
    /// from interpolated lines joined at the end was a visible share of a build (docs/benchmarks.md).
    func svg() -> [UInt8] {
        let height = (bars.count + (more == nil ? 0 : 1)) * Self.rowHeight + 8
        let plotWidth = Self.width - Self.valueWidth
        let largest = bars.map(\.value).max() ?? 0
        var out: [UInt8] = []
        out.reserveCapacity(400 + bars.count * 160)
        func put(_ text: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func put(_ number: Int) { out.append(contentsOf: String(number).utf8) }
        let title = XMLEscaper.escape(self.title)
        put(#"<svg xmlns="http://www.w3.org/2000/svg" width=""#); put(Self.width)
        put(#"" height=""#); put(height)
        put(#"" viewBox="0 0 "#); put(Self.width); put(" "); put(height)
        put(#"" role="img" aria-label=""#); out.append(contentsOf: title.utf8); put("\">\n<title>")
        out.append(contentsOf: title.utf8)
        put("</title>\n<style>text{font:15px system-ui,sans-serif;fill:#1d1d1f}rect{fill:#0b63c5}")
        put("@media (prefers-color-scheme:dark){text{fill:#f5f5f7}rect{fill:#6cb4ff}}</style>")
        for (index, bar) in bars.enumerated() {
            let y = 4 + index * Self.rowHeight
            let length = max(largest > 0 ? Self.pixels(bar.value, of: largest, in: plotWidth) : 0, 1)
            put(#"\#n<text x="0" y=""#); put(y + 15); put(#"">"#)
            XMLEscaper.appendEscaped(Text.shortened(bar.label, to: 24), to: &out)
            put(#"</text>\#n<rect x="0" y=""#); put(y + 20); put(#"" width=""#); put(length)
            put(#"" height="16"/>\#n<text x=""#); put(length + 6); put(#"" y=""#); put(y + 34); put(#"">"#)
            XMLEscaper.appendEscaped(bar.valueText, to: &out)
            put("</text>")
        }
        if let more {
            put(#"\#n<text x="0" y=""#); put(4 + bars.count * Self.rowHeight + 15); put(#"">"#)
            XMLEscaper.appendEscaped(more, to: &out)
            put("</text>")
        }
        put("\n</svg>\n")
        return out
    }

    /// `value`'s share of `width` in whole pixels, rounded half-up: exact arithmetic keeps the file
    /// identical on every machine.
    static func pixels(_ value: Decimal, of largest: Decimal, in width: Int) -> Int {
        DecimalText.roundedRatio(value, times: width, over: largest)
            ?? NSDecimalNumber(decimal: MoneyFormat.rounded(value * Decimal(width) / largest, digits: 0)).intValue
    }
}
