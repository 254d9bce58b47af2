/// `[rounds]`: how a weekly round ends, and who is settled without paying.
public struct RoundSettings: Sendable, Equatable {
    /// A group whose deadline has passed and whose orders are all removed is a finished round:
    /// archived, not counted by the deletion guard. Off by default, so the guard keeps its promise.
    public var closeAfterDeadline = false
    /// The organiser's own orders count as paid: nobody pays themselves.
    public var organizerSettled = true
    /// Without a `[payments]` source, a debt carried from a finished round is listed this many days after
    /// the round closed, then dropped; with one it stays until the payments settle it.
    public var keepUnpaidDays = 90

    public init(closeAfterDeadline: Bool = false, organizerSettled: Bool = true, keepUnpaidDays: Int = 90) {
        self.closeAfterDeadline = closeAfterDeadline
        self.organizerSettled = organizerSettled
        self.keepUnpaidDays = keepUnpaidDays
    }

    /// Reads `[rounds]` from `root`, if present; unknown keys are errors naming them.
    static func read(_ root: inout TOMLTableReader) throws -> RoundSettings {
        var settings = RoundSettings()
        guard var table = try root.table("rounds") else { return settings }
        settings.closeAfterDeadline = try table.bool("close_after_deadline") ?? false
        settings.organizerSettled = try table.bool("organizer_settled") ?? true
        // Up to ten years: longer is "until settled", which a [payments] source gives.
        settings.keepUnpaidDays = try table.int("keep_unpaid_days", in: 1...3_650) ?? 90
        try table.rejectUnknownKeys()
        return settings
    }
}
