/// One row as the diff reads it: validated in full, or kept (`KeptRow`), whose values and secrets the
/// diff never reads because it keeps the last snapshot's record of the same cells.
package enum SheetRow: Sendable, Equatable {
    case validated(ValidatedRow)
    case kept(KeptRow)

    /// The sheet row (header = row 1).
    package var row: Int {
        switch self {
        case .validated(let row): row.row
        case .kept(let row): row.row
        }
    }

    package var id: String? {
        switch self {
        case .validated(let row): row.id
        case .kept(let row): row.id
        }
    }

    package var identity: Identity {
        switch self {
        case .validated(let row): row.identity
        case .kept(let row): row.identity
        }
    }

    /// What matching compares (`Identity.key`), read in place.
    package var identityKey: IdentityKey {
        switch self {
        case .validated(let row): row.identity.key
        case .kept(let row): row.identity.key
        }
    }

    /// A kept row is valid: only a valid record is kept for it.
    package var rejected: Bool {
        switch self {
        case .validated(let row): row.rejected
        case .kept: false
        }
    }

    /// The row validated in full; nil for a kept one.
    package var validatedRow: ValidatedRow? {
        if case .validated(let row) = self { return row }
        return nil
    }
}
