import OrderPressOutput
import OrderPressSupport

/// The keys of the pieces the two large whole-site files are written in (`summary.json`, `orders.csv`),
/// as the reuse layer makes them (`PageKeys`): render writes a piece under its key and the published
/// file's piece with that key is copied instead (`PieceAssembler`). Render asks for keys, never makes them.
package protocol PieceKeys: Sendable {
    /// The pages' person slugs as the keys found them: `summary.json` names each person's page.
    var personSlugs: TextDictionary<String> { get }
    /// The key of the entry in `summary.json` of the group at `index` in `aggregation.groups`.
    func summaryPiece(groupAt index: Int) -> PieceKey
    /// The key of the entry in `summary.json` of the person at `index` in `aggregation.people`.
    func summaryPiece(personAt index: Int) -> PieceKey
    /// The key of the rows of `orders.csv` that show the orders at `positions` in `data.orders`.
    func csvPiece(_ positions: Range<Int>) -> PieceKey
}

/// No keys: a file written whole, in no pieces (a test, `SummaryDocument.encoded`).
enum NoPieceKeys: PieceKeys {
    package var personSlugs: TextDictionary<String> { switch self {} }
    func summaryPiece(groupAt index: Int) -> PieceKey { switch self {} }
    func summaryPiece(personAt index: Int) -> PieceKey { switch self {} }
    func csvPiece(_ positions: Range<Int>) -> PieceKey { switch self {} }
}
