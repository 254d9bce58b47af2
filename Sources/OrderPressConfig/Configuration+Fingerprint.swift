import Foundation
import OrderPressSupport

extension Configuration {
    /// Every setting as one digest, the same for equal configurations in any run of the same program: what
    /// a rerun compares to tell that nothing a row's validation reads has changed (`RowContext`). Made
    /// from the settings themselves, not the file's text, so that a configuration changed after it was
    /// read counts as changed. Sets and dictionaries are written sorted: their order is the process's. The
    /// output folders are left out: no row reads them, and a folder's URL gains a "/" once it exists.
    package var fingerprint: Digest128 {
        var plain = self
        (plain.labels, plain.minorUnits, plain.notify.print) = ([:], [:], [])
        let nowhere = URL(fileURLWithPath: "/")
        plain.output = OutputPaths(markdown: nowhere, site: nowhere, state: nowhere)
        let text = [
            String(reflecting: plain),
            labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n"),
            minorUnits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n"),
            notify.print.map(\.rawValue).sorted().joined(separator: "\n"),
        ].joined(separator: "\u{0}")
        return Array(text.utf8).withUnsafeBytes { Digest128(sha256Of: $0) }
    }
}
