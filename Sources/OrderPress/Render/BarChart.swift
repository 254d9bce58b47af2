import Foundation

/// A horizontal bar chart as a standalone SVG file: one bar per person, the name above its bar and
/// the amount beside it. Narrow (400 units) and with names on their own line, so that on a 390-pixel
/// phone the text stays about as large as the page's own small print.
struct BarChart {
    struct Bar {
        var label: String
        var value: Decimal
        var valueText: String
    }

    var title: String
    var bars: [Bar]
    /// A last line under the bars, "and 12 more people", when the chart leaves some out.
    var more: String? = nil

    private static let width = 400
    /// Room right of the longest bar for its amount.
    private static let valueWidth = 110
    private static let rowHeight = 42

    func svg() -> String {
        let height = (bars.count + (more == nil ? 0 : 1)) * Self.rowHeight + 8
        let plotWidth = Self.width - Self.valueWidth
        let largest = bars.map(\.value).max() ?? 0
        var lines = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Self.width)" height="\#(height)" viewBox="0 0 \#(Self.width) \#(height)" role="img" aria-label="\#(XMLText.escape(title))">"#,
            "<title>\(XMLText.escape(title))</title>",
            "<style>text{font:15px system-ui,sans-serif;fill:#1d1d1f}rect{fill:#0b63c5}"
                + "@media (prefers-color-scheme:dark){text{fill:#f5f5f7}rect{fill:#6cb4ff}}</style>",
        ]
        for (index, bar) in bars.enumerated() {
            let y = 4 + index * Self.rowHeight
            let length = max(largest > 0 ? Self.pixels(bar.value, of: largest, in: plotWidth) : 0, 1)
            lines.append(#"<text x="0" y="\#(y + 15)">\#(XMLText.escape(Text.shortened(bar.label, to: 24)))</text>"#)
            lines.append(#"<rect x="0" y="\#(y + 20)" width="\#(length)" height="16"/>"#)
            lines.append(#"<text x="\#(length + 6)" y="\#(y + 34)">\#(XMLText.escape(bar.valueText))</text>"#)
        }
        if let more {
            lines.append(#"<text x="0" y="\#(4 + bars.count * Self.rowHeight + 15)">\#(XMLText.escape(more))</text>"#)
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `value`'s share of `width` in whole pixels, rounded half-up: exact arithmetic keeps the file
    /// identical on every machine.
    static func pixels(_ value: Decimal, of largest: Decimal, in width: Int) -> Int {
        DecimalText.roundedRatio(value, times: width, over: largest)
            ?? NSDecimalNumber(decimal: DecimalText.rounded(value * Decimal(width) / largest, digits: 0)).intValue
    }
}
