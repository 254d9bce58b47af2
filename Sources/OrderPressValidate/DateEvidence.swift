import OrderPressSupport

/// What one source's dates prove about the order its locale writes a date's day and month in: a first
/// number above 12 (`27/11/2026`) proves day-first, a second one (`11/27/2026`) month-first. A date the
/// evidence does not settle (`05/11/2026` with no proof, or proof both ways) is never guessed.
struct DateEvidence: Sendable {
    var dayFirst = false
    var monthFirst = false
    /// The places (row indexes) of the dates that could be either, to read again once the evidence is in.
    var unsettled: [Int] = []

    mutating func note(_ proves: DateOrder?) {
        switch proves {
        case .dmy: dayFirst = true
        case .mdy: monthFirst = true
        case .ymd, nil: break
        }
    }

    mutating func merge(_ other: DateEvidence) {
        dayFirst = dayFirst || other.dayFirst
        monthFirst = monthFirst || other.monthFirst
        unsettled += other.unsettled
    }

    /// The order to read the unsettled dates with: `configured` (`date_order`), else the one order the
    /// source proves; nil when it proves none or both.
    func order(configured: DateOrder?) -> DateOrder? {
        if let configured { return configured }
        switch (dayFirst, monthFirst) {
        case (true, false): return .dmy
        case (false, true): return .mdy
        default: return nil
        }
    }
}
