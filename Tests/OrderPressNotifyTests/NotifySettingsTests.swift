import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressNotify
import OrderPressTestSupport

@Suite struct NotifySettingsTests {
    @Test func withoutTheTableBothKindsArePrinted() throws {
        let settings = try TestSupport.configuration(TestSupport.minimalTOML).notify
        #expect(settings.print == [.deleted, .rejected, .failing, .blocked])
        #expect(settings.webhookURLEnvironmentVariable == nil && settings.staleAfterMinutes == nil)
    }

    @Test(arguments: [
        ("print = []", Set<NewsItem.Kind>()),
        ("print = [\"deleted\"]", [.deleted]),
        ("print = [\"rejected\", \"deleted\"]", [.deleted, .rejected]),
    ] as [(String, Set<NewsItem.Kind>)])
    func printChoosesTheKinds(line: String, kinds: Set<NewsItem.Kind>) throws {
        let settings = try TestSupport.configuration(TestSupport.minimalTOML + "\n[notify]\n\(line)\n").notify
        #expect(settings.print == kinds)
    }

    @Test func theKeysNotActedOnYetAreStillChecked() throws {
        let settings = try TestSupport.configuration(
            TestSupport.minimalTOML + "\n[notify]\nwebhook_url_env = \"HOOK\"\nstale_after_minutes = 60\n").notify
        #expect(settings.webhookURLEnvironmentVariable == "HOOK" && settings.staleAfterMinutes == 60)
    }

    @Test(arguments: [
        ("print = \"deleted\"", "orderpress.toml: 'notify.print' must be"),
        ("print = [\"everything\"]", "orderpress.toml: 'notify.print' lists 'everything'; use any of \"deleted\", \"rejected\", \"failing\", \"blocked\", or [] for nothing"),
        ("stale_after_minutes = 0", "orderpress.toml: 'notify.stale_after_minutes' must be"),
        ("webhook = \"https://hooks.example.org/x\"", "orderpress.toml: unknown key 'notify.webhook'; remove it or check its spelling"),
    ])
    func mistakesAreConfigurationErrorsNamingTheKey(line: String, message: String) {
        #expect {
            try TestSupport.configuration(TestSupport.minimalTOML + "\n[notify]\n\(line)\n")
        } throws: { error in
            (error as? ConfigurationError).map { $0.description.hasPrefix(message) } ?? false
        }
    }
}
