import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

@Suite struct SheetPagerTests {
    @Test(arguments: [
        ("https://sheetdb.io/api/v1/abc?sheet=orders", "https://sheetdb.io/api/v1/abc?sheet=orders&limit=500&offset=1000"),
        ("https://sheetdb.io/api/v1/abc", "https://sheetdb.io/api/v1/abc?limit=500&offset=1000"),
        ("https://sheetdb.io/api/v1/abc?limit=3&sheet=%E8%A8%82%E5%96%AE&offset=9&cast_numbers=price",
         "https://sheetdb.io/api/v1/abc?sheet=%E8%A8%82%E5%96%AE&cast_numbers=price&limit=500&offset=1000"),
    ])
    func pageURLsKeepEveryOtherQueryItem(configured: String, page: String) throws {
        #expect(SheetPager.pageURL(try #require(URL(string: configured)), limit: 500, offset: 1000).absoluteString == page)
    }

    @Test(arguments: [
        ("https://sheetdb.io/api/v1/abc?sheet=orders&limit=10&offset=0", "https://sheetdb.io/api/v1/abc?sheet=orders&limit=10&offset=0"),
        ("https://user:pa55@example.com/rates.json?app_id=KEY123&base=USD#x", "https://example.com/rates.json?app_id=redacted&base=redacted"),
        ("http://127.0.0.1:8080/capi.php", "http://127.0.0.1:8080/capi.php"),
        ("https://example.com/api?abcdef123", "https://example.com/api?redacted"),
        ("https://example.com/api?sheet&abcdef123&mode=X", "https://example.com/api?sheet&redacted&mode=X"),
        ("https://example.com/api?=abcdef123", "https://example.com/api?=redacted"),
        ("https://example.com/api?sheet=orders;key=SECRET2;SECRET3", "https://example.com/api?sheet=orders;key=redacted;redacted"),
        ("https://example.com/api;jsessionid=SECRET1/v1;SECRET4?sheet=orders", "https://example.com/api;jsessionid=redacted/v1;redacted?sheet=orders"),
        ("https://example.com/api?%73heet=orders&k%65y=SECRET5", "https://example.com/api?%73heet=orders&k%65y=redacted"),
    ])
    func messagesShowTheAddressWithoutCredentials(url: String, shown: String) throws {
        #expect(URLRedactor.display(try #require(URL(string: url))) == shown)
    }
}
