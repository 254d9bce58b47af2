import Foundation
import Testing

@testable import OrderPressConfig
import OrderPressTestSupport

@Suite struct ConfigurationLoaderTests {
    @Test func readsTheSampleConfiguration() throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let folder = TestSupport.sampleConfig.deletingLastPathComponent()
        #expect(configuration.title == "Friday tea run")
        #expect(configuration.language == "zh-Hant")
        #expect(configuration.baseCurrency == "TWD")
        #expect(configuration.displayCurrencies == ["USD", "JPY"])
        #expect(configuration.timeZone.identifier == "Asia/Taipei")
        #expect(configuration.orders.location == .path(folder.appendingPathComponent("data/orders.json").standardizedFileURL))
        #expect(configuration.output.site == folder.appendingPathComponent("output/site").standardizedFileURL)
        #expect(configuration.orderColumns.person == "orderer")
        #expect(configuration.orderColumns.options == ["size", "sugar", "ice"])
        #expect(configuration.orderColumns.secret == ["editCode"])
        #expect(configuration.groupColumns.organizer == "organizer")
        #expect(configuration.rates?.format == .rter)
        #expect(configuration.rates?.maxAgeHours == 48)
        #expect(configuration.minorUnits == ["TWD": 0])
        #expect(configuration.maxDeletedFraction == 0.5)
    }

    @Test func appliesDefaults() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        #expect(configuration.displayCurrencies == [])
        #expect(configuration.orders.timeoutSeconds == 30)
        #expect(configuration.orders.refreshMinutes == 0)
        #expect(configuration.orders.pageSize == 1000)
        #expect(configuration.output.markdown.path == "/tmp/site/output/markdown")
        #expect(configuration.orderColumns.item == "drink")
        #expect(configuration.groups == nil)
        #expect(configuration.rates == nil)
        let columns = configuration.groupColumns
        #expect((columns.payment, columns.fee, columns.discount) == ("payment", "fee", "discount"))
    }

    /// `[groups.columns]` names the optional money columns (issue 24).
    @Test func readsTheGroupsMoneyColumns() throws {
        let configuration = try TestSupport.configuration(
            TestSupport.minimalTOML + "\n[groups]\npath = \"g.csv\"\n[groups.columns]\npayment = \"付款方式\"\nfee = \"運費\"\ndiscount = \"折扣\"\n")
        let columns = configuration.groupColumns
        #expect((columns.payment, columns.fee, columns.discount) == ("付款方式", "運費", "折扣"))
        #expect(columns.mapped.suffix(3) == ["付款方式", "運費", "折扣"])
    }

    @Test func readsTheKeysOfURLSources() throws {
        let configuration = try TestSupport.configuration("""
            [orders]
            url = "https://sheetdb.io/api/v1/abc?sheet=orders"
            token_env = "SHEETDB_TOKEN"
            timeout_seconds = 10
            refresh_minutes = 5
            page_size = 250
            [groups]
            url = "https://sheetdb.io/api/v1/abc?sheet=groups"
            page_size = 50
            [rates]
            url = "https://tw.rter.info/capi.php"
            refresh_minutes = 720
            """)
        #expect(configuration.orders.location == .url(URL(string: "https://sheetdb.io/api/v1/abc?sheet=orders")!))
        #expect(configuration.orders.tokenEnvironmentVariable == "SHEETDB_TOKEN")
        #expect(configuration.orders.timeoutSeconds == 10)
        #expect(configuration.orders.refreshMinutes == 5)
        #expect(configuration.orders.pageSize == 250)
        #expect(configuration.groups?.pageSize == 50)
        #expect(configuration.rates?.source.refreshMinutes == 720)
    }

    @Test(arguments: [
        ("tittle = \"x\"\n[orders]\npath = \"o.json\"", "orderpress.toml: unknown key 'tittle'; remove it or check its spelling"),
        ("[orders]\npath = \"o.json\"\n[orders.columns]\nperson = \"a\"\nprise = \"p\"",
         "orderpress.toml: unknown key 'orders.columns.prise'; remove it or check its spelling"),
        ("[orders]\npath = \"o.json\"\ntimeout_seconds = \"30\"", "orderpress.toml: 'orders.timeout_seconds' must be a whole number"),
        ("display_currencies = \"USD\"\n[orders]\npath = \"o.json\"", "orderpress.toml: 'display_currencies' must be an array of strings"),
        ("[orders]\npath = \"o.json\"\n[orders.columns]\noptions = [1, 2]", "orderpress.toml: 'orders.columns.options' must be an array of strings"),
        ("title = 3\n[orders]\npath = \"o.json\"", "orderpress.toml: 'title' must be a string"),
        ("[output]\nsite = \"s\"\nwebroot = \"w\"\n[orders]\npath = \"o.json\"", "orderpress.toml: unknown key 'output.webroot'; remove it or check its spelling"),
        ("title = \"x\"", "orderpress.toml: 'orders' is required"),
        ("[orders]\nurl = \"u\"\npath = \"p.json\"", "orderpress.toml: 'orders' takes either url or path, not both"),
        ("[orders]\ntimeout_seconds = 3", "orderpress.toml: 'orders' needs a url, a path or a google_sheet"),
        ("[orders]\nurl = \"ftp://x/y\"", "orderpress.toml: 'orders.url' must be an http or https address"),
        ("base_currency = \"NTD1\"\n[orders]\npath = \"o.json\"",
         "orderpress.toml: 'base_currency' must be an ISO 4217 currency code such as \"TWD\" (found 'NTD1')"),
        ("timezone = \"Mars/Olympus\"\n[orders]\npath = \"o.json\"",
         "orderpress.toml: 'timezone' names an unknown time zone 'Mars/Olympus'; use an IANA name such as \"Asia/Taipei\""),
        ("[orders]\npath = \"o.json\"\n[rates]\npath = \"r.json\"\nformat = \"yahoo\"",
         "orderpress.toml: 'rates.format' must be one of rter, ecb, json (found 'yahoo')"),
        ("[orders]\npath = \"o.json\"\n[minor_units]\nTWD = 9", "orderpress.toml: 'minor_units.TWD' must be a whole number from 0 to 4"),
        ("[orders]\npath = \"o.json\"\n[guard]\nmax_deleted_fraction = 1.5", "orderpress.toml: 'guard.max_deleted_fraction' must be between 0 and 1"),
        ("[orders]\npath = \"o.json\"\n[guard]\nmax_deleted = 1", "orderpress.toml: unknown key 'guard.max_deleted'; remove it or check its spelling"),
        ("[orders]\npath = \"o.json\"\n[rates]\nurl = \"https://r\"\nmax_age = 3", "orderpress.toml: unknown key 'rates.max_age'; remove it or check its spelling"),
        ("[orders]\nurl = \"https://s/api\"\npage_size = 0", "orderpress.toml: 'orders.page_size' must be a whole number from 1 to 10000 (found 0)"),
        ("[orders]\nurl = \"https://s/api\"\npage_size = \"100\"", "orderpress.toml: 'orders.page_size' must be a whole number"),
        ("[orders]\npath = \"o.json\"\n[groups]\nurl = \"https://s/api\"\npage_size = -5", "orderpress.toml: 'groups.page_size' must be a whole number from 1 to 10000 (found -5)"),
        ("[orders]\npath = \"o.json\"\n[rates]\nurl = \"https://r\"\npage_size = 10", "orderpress.toml: unknown key 'rates.page_size'; remove it or check its spelling"),
        ("[orders]\nurl = \"https://s/api\"\npagesize = 10", "orderpress.toml: unknown key 'orders.pagesize'; remove it or check its spelling"),
    ])
    func rejectsBadConfiguration(toml: String, message: String) {
        #expect(throws: ConfigurationError.self) { try TestSupport.configuration(toml) }
        do {
            _ = try TestSupport.configuration(toml)
        } catch {
            #expect(error.description == message)
            #expect(error.exitStatus == .usage)
        }
    }

    /// Every number with a range, just outside it on either side; the bounds themselves are accepted.
    @Test(arguments: [
        ("orders", "timeout_seconds", 1, 600), ("groups", "timeout_seconds", 1, 600), ("rates", "timeout_seconds", 1, 600),
        ("orders", "refresh_minutes", 0, 10_080), ("groups", "refresh_minutes", 0, 10_080), ("rates", "refresh_minutes", 0, 10_080),
        ("orders", "page_size", 1, 10_000), ("groups", "page_size", 1, 10_000), ("rates", "max_age_hours", 1, 8_760),
    ])
    func numbersOutOfRangeAreRefused(table: String, key: String, low: Int, high: Int) throws {
        func toml(_ value: Int) -> String {
            let others = ["orders", "groups", "rates"].filter { $0 != table }.map { "[\($0)]\nurl = \"https://s/\($0)\"\n" }
            return "[\(table)]\nurl = \"https://s/\(table)\"\n\(key) = \(value)\n" + others.joined()
        }
        for value in [low - 1, high + 1, Int.min, Int.max] {
            #expect(throws: ConfigurationError(
                file: "orderpress.toml",
                message: "'\(table).\(key)' must be a whole number from \(low) to \(high) (found \(value))")) {
                try TestSupport.configuration(toml(value))
            }
        }
        for value in [low, high] {
            #expect(throws: Never.self) { try TestSupport.configuration(toml(value)) }
        }
    }

    @Test(arguments: [
        ("base_currency = \"XYZ\"", "base_currency", "XYZ"),
        ("base_currency = \"NTD\"", "base_currency", "NTD"),
        ("display_currencies = [\"USD\", \"RMB\"]", "display_currencies", "RMB"),
        ("display_currencies = [\"usd\", \"\"]", "display_currencies", ""),
        ("[minor_units]\nYEN = 0", "minor_units.YEN", "YEN"),
    ])
    func currenciesMustBeISO4217Codes(line: String, key: String, found: String) {
        #expect(throws: ConfigurationError(
            file: "orderpress.toml", message: "'\(key)' must be an ISO 4217 currency code such as \"TWD\" (found '\(found)')")) {
            try TestSupport.configuration(line.hasPrefix("[") ? "[orders]\npath = \"o.json\"\n\(line)" : "\(line)\n[orders]\npath = \"o.json\"")
        }
    }

    @Test func theTemplatesFolderMustExistAndBeAFolder() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["a-file": "x", "templates/layout.html": "{{{content}}}"], in: folder)
        let toml = { (templates: String) in "templates = \"\(templates)\"\n[orders]\npath = \"o.json\"" }
        #expect(try TestSupport.configuration(toml("templates"), in: folder).templates?.lastPathComponent == "templates")
        #expect(throws: ConfigurationError(
            file: "orderpress.toml",
            message: "'templates' names \(folder.path)/missing, which does not exist; create it (orderpress init writes one) or remove the key")) {
            try TestSupport.configuration(toml("missing"), in: folder)
        }
        #expect(throws: ConfigurationError(
            file: "orderpress.toml", message: "'templates' names \(folder.path)/a-file, which is not a folder; name the folder of templates")) {
            try TestSupport.configuration(toml("a-file"), in: folder)
        }
    }

    @Test func reportsTheLineOfASyntaxError() {
        do {
            _ = try TestSupport.configuration("title = \"x\"\n[orders\npath = 1")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("orderpress.toml: line 2: "))
        }
    }

    @Test func aMissingFileSaysHowToCreateOne() {
        #expect(throws: ConfigurationError(
            file: "/nonexistent/orderpress.toml",
            message: "does not exist; create a site with 'orderpress init DIR', or pass --config FILE or run in the site's folder")) {
            try ConfigurationLoader.load(from: URL(fileURLWithPath: "/nonexistent/orderpress.toml"))
        }
    }

    @Test func aFolderSaysToPassTheFileInside() {
        let folder = TestSupport.temporaryFolder()
        #expect(throws: ConfigurationError(
            file: folder.path,
            message: "is a folder; pass the orderpress.toml file inside it (--config \(folder.path)/orderpress.toml)")) {
            try ConfigurationLoader.load(from: folder)
        }
    }

    @Test func anUnreadableFileSaysWhy() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["orderpress.toml": "title = \"x\""], in: folder)
        let file = folder.appendingPathComponent("orderpress.toml")
        try Data([0xFF, 0xFE, 0x00]).write(to: file)
        do {
            _ = try ConfigurationLoader.load(from: file)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("\(file.path): cannot be read ("))
            #expect(error.exitStatus == .usage)
        }
    }

    /// `max_rows`: sheets only, 1 to 10,000,000, default 1,000,000.
    @Test(arguments: [
        ("[orders]\nurl = \"https://s/api\"", 1_000_000, nil),
        ("[orders]\nurl = \"https://s/api\"\nmax_rows = 1", 1, nil),
        ("[orders]\npath = \"o.json\"\nmax_rows = 10000000", 10_000_000, nil),
        ("[orders]\nurl = \"https://s/api\"\nmax_rows = 0", nil, "orderpress.toml: 'orders.max_rows' must be a whole number from 1 to 10000000 (found 0)"),
        ("[orders]\nurl = \"https://s/api\"\nmax_rows = 10000001", nil, "orderpress.toml: 'orders.max_rows' must be a whole number from 1 to 10000000 (found 10000001)"),
        ("[orders]\nurl = \"https://s/api\"\nmax_rows = 2.5", nil, "orderpress.toml: 'orders.max_rows' must be a whole number"),
        ("[orders]\npath = \"o.json\"\n[groups]\nurl = \"https://s/api\"\nmax_rows = -1", nil, "orderpress.toml: 'groups.max_rows' must be a whole number from 1 to 10000000 (found -1)"),
        ("[orders]\npath = \"o.json\"\n[rates]\nurl = \"https://r\"\nmax_rows = 10", nil, "orderpress.toml: unknown key 'rates.max_rows'; remove it or check its spelling"),
    ] as [(String, Int?, String?)])
    func maxRowsIsAWholeNumberFromOneToTenMillion(toml: String, rows: Int?, message: String?) {
        do {
            let configuration = try TestSupport.configuration(toml)
            #expect(configuration.orders.maxRows == rows)
            #expect(message == nil)
        } catch {
            #expect(error.description == message)
            #expect(error.exitStatus == .usage)
        }
    }
}
