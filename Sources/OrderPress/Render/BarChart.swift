import Foundation

/// A horizontal bar chart as a standalone SVG file: one bar per person, labelled with name and amount.
struct BarChart {
    struct Bar {
        var label: String
        var value: Decimal
        var valueText: String
    }

    var title: String
    var bars: [Bar]

    private static let width = 640
    private static let labelWidth = 200
    private static let rowHeight = 28

    func svg() -> String {
        let height = bars.count * Self.rowHeight + 16
        let plotWidth = Self.width - Self.labelWidth - 90
        let largest = bars.map(\.value).max() ?? 0
        var lines = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Self.width)" height="\#(height)" viewBox="0 0 \#(Self.width) \#(height)" role="img" aria-label="\#(XMLText.escape(title))">"#,
            "<title>\(XMLText.escape(title))</title>",
            "<style>text{font:13px system-ui,sans-serif;fill:#1d1d1f}rect{fill:#0b63c5}"
                + "@media (prefers-color-scheme:dark){text{fill:#f5f5f7}rect{fill:#6cb4ff}}</style>",
        ]
        for (index, bar) in bars.enumerated() {
            let y = 8 + index * Self.rowHeight
            let length = largest > 0 ? Self.pixels(bar.value * Decimal(plotWidth) / largest) : 0
            lines.append(
                #"<text x="\#(Self.labelWidth - 8)" y="\#(y + 18)" text-anchor="end">\#(XMLText.escape(Text.shortened(bar.label, to: 24)))</text>"#)
            lines.append(#"<rect x="\#(Self.labelWidth)" y="\#(y + 4)" width="\#(max(length, 1))" height="\#(Self.rowHeight - 8)"/>"#)
            lines.append(#"<text x="\#(Self.labelWidth + max(length, 1) + 6)" y="\#(y + 18)">\#(XMLText.escape(bar.valueText))</text>"#)
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whole pixels, rounded half-up: exact arithmetic keeps the file identical on every machine.
    private static func pixels(_ value: Decimal) -> Int {
        NSDecimalNumber(decimal: DecimalText.rounded(value, digits: 0)).intValue
    }
}
