/// The stable name of each reason a row is rejected for and of each warning: what scripts read in
/// `summary.json` (beside the English text) and the key of its text in each language (`ReasonCatalogue`,
/// label `reason_<code>`). A code, once published, never changes its meaning.
public enum ReasonCode: String, Sendable, Codable, CaseIterable {
    // Rejected rows
    case personMissing = "person_missing"
    case itemMissing = "item_missing"
    case groupMissing = "group_missing"
    case groupUnknown = "group_unknown"
    case priceMissing = "price_missing"
    case priceNegative = "price_negative"
    case priceTooLong = "price_too_long"
    case priceSheetFormat = "price_sheet_format"
    case priceFormatted = "price_formatted"
    case priceNotNumber = "price_not_number"
    case priceOtherSeparator = "price_other_separator"
    case priceSignContradicts = "price_sign_contradicts"
    case quantityInvalid = "quantity_invalid"
    case quantityFormatted = "quantity_formatted"
    case currencyUnknown = "currency_unknown"
    case currencyDiffers = "currency_differs"
    case rowShiftedExtra = "row_shifted_extra"
    case rowShiftedMissing = "row_shifted_missing"
    case rowSecretShape = "row_secret_shape"
    case rowFields = "row_fields"
    case rowSwallowed = "row_swallowed"
    // Warnings about a row
    case timeUnreadable = "time_unreadable"
    case timeUnsettled = "time_unsettled"
    case personTooLong = "person_too_long"
    case itemTooLong = "item_too_long"
    case noteTooLong = "note_too_long"
    case optionTooLong = "option_too_long"
    case paidUnreadable = "paid_unreadable"
    case idRepeated = "id_repeated"
    case rowRepeated = "row_repeated"
    case personSpellingsMerged = "person_spellings_merged"
    // Warnings about a source
    case deadlineUnreadable = "deadline_unreadable"
    case deadlineUnsettled = "deadline_unsettled"
    case groupAmountInvalid = "group_amount_invalid"
    case groupAmountPercent = "group_amount_percent"
    case groupAmountSheetFormat = "group_amount_sheet_format"
    case groupAmountFormatted = "group_amount_formatted"
    case groupAmountOtherSeparator = "group_amount_other_separator"
    case groupAmountSignContradicts = "group_amount_sign_contradicts"
    case groupNameless = "group_nameless"
    case groupRepeated = "group_repeated"
    case groupCurrencyUnknown = "group_currency_unknown"
    case organizerUnmatched = "organizer_unmatched"
    case sourceRowFields = "source_row_fields"
    case sourceRowSwallowed = "source_row_swallowed"
    case columnUnmapped = "column_unmapped"
    case columnRepeated = "column_repeated"
    case ratesIgnored = "rates_ignored"
    case ratesFromCache = "rates_from_cache"
    case cacheNotSaved = "cache_not_saved"
    // Rows of the payments source that are not counted
    case paymentPersonMissing = "payment_person_missing"
    case paymentAmountMissing = "payment_amount_missing"
    case paymentAmountInvalid = "payment_amount_invalid"
    case paymentAmountOtherSeparator = "payment_amount_other_separator"
    case paymentAmountSignContradicts = "payment_amount_sign_contradicts"
    case paymentCurrencyUnknown = "payment_currency_unknown"
    case paymentCredit = "payment_credit"

    /// The label that holds its text in each language (`[labels]` overrides it like any other).
    package var labelKey: String { "reason_" + rawValue }

    /// The label of the words members read on the pages, for a code whose text advises the organiser
    /// (`ReasonCatalogue`: a setting, the sheet's format, a fix in the sheet); `labelKey` for the others.
    package var memberLabelKey: String { "member_" + labelKey }
}
