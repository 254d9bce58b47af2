import OrderPressSupport

extension Reason {
    /// A reason whose English sentence is its code's English text in `ReasonCatalogue` with the values put in:
    /// the one place the sentence is written, so that the terminal, `summary.json` and the pages say the same.
    package init(_ code: ReasonCode, _ values: [String: String] = [:]) {
        self.init(code, values, english: Self.english(code, values))
    }

    /// The code's English text with `values` put in, as they are.
    package static func english(_ code: ReasonCode, _ values: [String: String]) -> String {
        guard let text = ReasonCatalogue.english[code.labelKey] else { preconditionFailure("no English text for reason \(code.rawValue)") }
        let names = Array(values.keys)
        return Labels.Filler(text, names: names, literal: { $0 }).fill(names.map { values[$0]! })
    }
}
