/// The signs and words a currency-formatted cell writes beside an amount (`¥300`, `1,200円`, `NT$35`,
/// `35元`, `€4,50`, `4.50 USD`), and the currencies each can stand for: a sign is read when it belongs to
/// the amount's currency, and contradicts it otherwise. Compared after NFKC (`￥` is `¥`).
package enum CurrencySign {
    /// Currencies written with a bare `$` (Google Sheets' formats for these locales use it).
    static let dollars: Set<String> = [
        "USD", "CAD", "AUD", "NZD", "SGD", "HKD", "TWD", "MXN", "ARS", "CLP", "COP", "CUP", "DOP", "UYU", "BND", "FJD", "JMD",
        "TTD", "BSD", "BBD", "BZD", "BMD", "KYD", "LRD", "NAD", "SBD", "SRD", "XCD", "GYD",
    ]

    private static let signs: [String: Set<String>] = [
        "$": dollars, "US$": ["USD"], "NT$": ["TWD"], "HK$": ["HKD"], "A$": ["AUD"], "AU$": ["AUD"], "C$": ["CAD"], "CA$": ["CAD"],
        "S$": ["SGD"], "NZ$": ["NZD"], "MX$": ["MXN"], "R$": ["BRL"],
        "¥": ["JPY", "CNY"], "円": ["JPY"], "元": ["TWD", "CNY"], "€": ["EUR"], "£": ["GBP"], "₩": ["KRW"], "원": ["KRW"], "₹": ["INR"],
        "Rs": ["INR"], "Rs.": ["INR"], "₽": ["RUB"], "₱": ["PHP"], "฿": ["THB"], "₫": ["VND"], "₺": ["TRY"], "₪": ["ILS"], "CHF": ["CHF"],
        "zł": ["PLN"], "kr": ["SEK", "NOK", "DKK", "ISK"],
    ]

    /// The currencies `sign` (the text beside an amount, spaces trimmed) can stand for: a known sign, or an
    /// ISO 4217 code (`USD`); nil for anything else (`杯`, `each`).
    package static func currencies(of sign: String) -> Set<String>? {
        if let found = signs[sign] { return found }
        if sign.utf8.count == 3, Currency.codes.contains(sign) { return [sign] }
        return nil
    }
}
