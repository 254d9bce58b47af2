/// `decimal_separator`: the mark between a number's whole part and its fraction when a sheet writes
/// numbers as text. With `.point` a comma only groups thousands (`1,234.50`); with `.comma` a point or
/// a space groups them (`1.234,56`, `1 234,56`).
public enum DecimalSeparator: String, Sendable, CaseIterable {
    case point = "."
    case comma = ","
}

extension DecimalSeparator {
    /// The decimal mark's and the grouping mark's bytes (the grouping one the fast path reads).
    package var marks: (decimal: UInt8, group: UInt8) {
        self == .point ? (UInt8(ascii: "."), UInt8(ascii: ",")) : (UInt8(ascii: ","), UInt8(ascii: "."))
    }

    package var other: DecimalSeparator { self == .point ? .comma : .point }
}
