/// `date_order`: the order a sheet's locale writes a date's day, month and year in when the date is text
/// (`11/27/2026` en-US, `27/11/2026` en-GB and most of Europe, `2026/11/27` East Asia).
public enum DateOrder: String, Sendable, CaseIterable {
    case mdy, dmy, ymd
}
