import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// The shortcut taken for speed gives exactly what the general code gives.
@Suite struct ContainedPathTests {
    /// The one-pass test of a plain path takes what splitting the text took, and never more: a component
    /// ending in a combining mark (`/` + U+0301 is one Character, no separator) is refused, not waved through.
    @Test func aPlainPathIsWhatSplittingItSays() async {
        let parts = ["a", "é", ".", "..", "...", "/", "\0", "\u{301}", "陳", ".a", "a."]
        func byCharacters(_ path: String) -> Bool {
            !path.isEmpty && !path.hasPrefix("/") && !path.contains("\0")
                && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
        }
        await propertyCheck(count: 3000, input: Gen.int(in: 0...(parts.count - 1)).array(of: 0...6)) { picks in
            let path = picks.map { parts[$0] }.joined()
            if ContainedPath.isPlain(path) { #expect(byCharacters(path), "\(Array(path.unicodeScalars))") }
            if !path.contains("\u{301}") { #expect(ContainedPath.isPlain(path) == byCharacters(path), "\(Array(path.unicodeScalars))") }
        }
    }
}
