import Foundation
import OrderPressSupport

/// Numeric cells (price, quantity, and any other number a sheet holds) as people type them: a Chinese or
/// Japanese input method writes full-width digits and separators (`３５`, `１，２００`, `１２．５`), which
/// NFKC maps to ASCII. Only numeric cells are folded: NFKC on names and items would change what people
/// wrote (`①`, `ｶ`).
enum NumericText {
    /// `text` in NFKC when it has a byte beyond ASCII; `text` itself otherwise (the usual cell, at the cost
    /// of one look at its bytes).
    package static func folded(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        return Text.normalize(text.precomposedStringWithCompatibilityMapping)
    }
}
