import Foundation
import OrderPressSupport

/// Everything `orderpress.toml` says, with paths resolved against the configuration file's folder.
public struct Configuration: Sendable {
    public var file: URL
    public var title: String
    /// The `<html lang>` tag; it also picks the label catalogue.
    public var language: String
    /// `[labels]`: single interface labels overriding the language's catalogue, by key.
    public var labels: [String: String] = [:]
    /// Where the site is served, ending in "/"; makes the feed's links absolute.
    public var baseURL: String?
    public var baseCurrency: String
    public var displayCurrencies: [String]
    public var timeZone: TimeZone
    /// A folder of templates overriding the built-in ones.
    public var templates: URL?
    public var output: OutputPaths
    public var orders: SourceSettings
    public var orderColumns: OrderColumns
    public var groups: SourceSettings?
    public var groupColumns: GroupColumns
    /// `[payments]`: where the organiser records settle-ups of debts carried over from finished rounds.
    public var payments: SourceSettings? = nil
    public var paymentColumns = PaymentColumns()
    public var rates: RateSettings?
    /// Overrides of ISO 4217 minor units, by currency code.
    public var minorUnits: [String: Int]
    public var maxDeletedFraction: Double
    /// Commit the Markdown folder after a build that changed it (`[git] commit`).
    public var gitCommit = false
    /// `[notify]`: what `--quiet` prints.
    public var notify = NotifySettings()
    /// `[rounds]`: finished rounds and the organiser's own orders.
    public var rounds = RoundSettings()
    /// `indexable`: let search engines index the pages (they list names and debts); off by default.
    public var indexable = false

    public struct OutputPaths: Sendable {
        public var markdown: URL
        public var site: URL
        public var state: URL
        package init(markdown: URL, site: URL, state: URL) {
            self.markdown = markdown
            self.site = site
            self.state = state
        }
    }

    /// Where a source's rows come from.
    public enum Location: Sendable, Equatable {
        case url(URL)
        case path(URL)
        /// A tab of a Google Sheet, read through the Sheets API.
        case googleSheet(GoogleSheetSource)
    }

    /// The keys shared by the `orders`, `groups`, `payments` and `rates` tables.
    public struct SourceSettings: Sendable {
        /// The table's name in the configuration, used in messages.
        public var name: String
        public var location: Location
        public var tokenEnvironmentVariable: String?
        public var timeoutSeconds: Int
        public var refreshMinutes: Int
        /// Rows per request (`limit`) when a sheet is read from a URL; rates are one document.
        public var pageSize = 1000
        /// A sheet with more data rows is an error: a bound on what a server can make OrderPress hold.
        public var maxRows = 1_000_000
        /// `date_order`: how a date written as text orders its numbers; nil reads it from the source's evidence.
        public var dateOrder: DateOrder?
        /// `decimal_separator`: which mark ends a number's whole part when written as text.
        public var decimalSeparator: DecimalSeparator = .point
    }

    public struct RateSettings: Sendable {
        public var source: SourceSettings
        public var format: RateFormat
        public var maxAgeHours: Int
    }

    public enum RateFormat: String, Sendable, CaseIterable {
        case rter, ecb, json
    }

    /// The sheet column that holds each order field.
    public struct OrderColumns: Sendable {
        public var id = "id"
        public var group = "group"
        public var person = "orderer"
        public var item = "drink"
        public var options = ["size", "sugar", "ice"]
        public var quantity = "quantity"
        public var price = "price"
        public var currency = "currency"
        public var time = "time"
        public var note = "note"
        /// Optional: whether the person has paid for the order.
        public var paid = "paid"
        public var secret = ["editCode"]

        /// Every column the configuration maps, secrets included, in a stable order.
        package var mapped: [String] {
            [id, group, person, item] + options + [quantity, price, currency, time, note, paid] + secret
        }
    }

    public struct GroupColumns: Sendable {
        public var name = "group"
        public var organizer = "organizer"
        public var shop = "shop"
        public var currency = "currency"
        public var deadline = "deadline"
        /// Optional columns: how to pay the organiser, a fee shared equally, a discount shared by subtotal.
        public var payment = "payment"
        public var fee = "fee"
        public var discount = "discount"

        package var mapped: [String] { [name, organizer, shop, currency, deadline, payment, fee, discount] }
    }

    /// The sheet column of each field of a payment (`[payments.columns]`).
    public struct PaymentColumns: Sendable {
        public var person = "person"
        public var amount = "amount"
        /// Optional columns: the amount's currency, the group whose organiser was paid, when.
        public var currency = "currency"
        public var group = "group"
        public var time = "time"

        package var mapped: [String] { [person, amount, currency, group, time] }
    }
}
