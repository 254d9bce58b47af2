import OrderPressFetch
import OrderPressSupport

extension Reason {
    /// Why a row that cannot be split into the sheet's columns is rejected (its cells are never shown).
    static func malformed(_ row: SourceTable.MalformedRow, headerCount: Int) -> Reason {
        let english = row.reason(headerCount: headerCount)
        if let lines = row.swallowedLines {
            return Reason(.rowSwallowed, ["first": String(lines.lowerBound), "last": String(lines.upperBound)], english: english)
        }
        return Reason(.rowFields, ["count": String(row.fieldCount), "header_count": String(headerCount)], english: english)
    }
}
