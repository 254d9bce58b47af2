import Foundation
import Testing
import OrderPressTestSupport


/// The configuration keys that shape the site: `language`, `[labels]`, `base_url`.
@Suite struct SiteSettingsTests {
    static let orders = "[orders]\npath = \"o.json\"\n"

    @Test func labelsAndBaseURLAreRead() throws {
        let configuration = try TestSupport.configuration(
            "language = \"zh-TW\"\nbase_url = \"https://tea.example.org/friday\"\n" + Self.orders
                + "[labels]\ntotal = \"總額\"\nrejected_notice_one = \"{count} row out\"\n")
        #expect(configuration.language == "zh-TW")
        #expect(configuration.labels == ["total": "總額", "rejected_notice_one": "{count} row out"])
        #expect(configuration.baseURL == "https://tea.example.org/friday/")  // the final "/" is added
        let defaults = try TestSupport.configuration(Self.orders)
        #expect(defaults.labels == [:])
        #expect(defaults.baseURL == nil)
    }

    @Test(arguments: [
        (Self.orders + "[labels]\ntotall = \"x\"", "orderpress.toml: unknown key 'labels.totall'; remove it or check its spelling"),
        // Renamed when the counts got their singulars: "(1 item, 1 order)".
        (Self.orders + "[labels]\nitems_orders = \"x\"", "orderpress.toml: unknown key 'labels.items_orders'; remove it or check its spelling"),
        (Self.orders + "[labels]\ntotal_one = \"x\"", "orderpress.toml: unknown key 'labels.total_one'; remove it or check its spelling"),
        (Self.orders + "[labels]\ntotal = 3", "orderpress.toml: 'labels.total' must be a string"),
        ("labels = \"x\"\n" + Self.orders, "orderpress.toml: 'labels' must be a table"),
        ("base_url = \"tea.example.org/friday/\"\n" + Self.orders,
         "orderpress.toml: 'base_url' must be an absolute http or https address such as \"https://tea.example.org/friday/\""),
        ("base_url = \"ftp://tea.example.org/\"\n" + Self.orders,
         "orderpress.toml: 'base_url' must be an absolute http or https address such as \"https://tea.example.org/friday/\""),
        ("base_url = \"https://tea.example.org/?x=1\"\n" + Self.orders,
         "orderpress.toml: 'base_url' must be an absolute http or https address such as \"https://tea.example.org/friday/\""),
        ("base_url = \"/friday/\"\n" + Self.orders,
         "orderpress.toml: 'base_url' must be an absolute http or https address such as \"https://tea.example.org/friday/\""),
    ])
    func badSettingsExit64NamingTheKey(toml: String, message: String) {
        do {
            _ = try TestSupport.configuration(toml)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
            #expect(error.exitStatus == .usage)
        }
    }
}
