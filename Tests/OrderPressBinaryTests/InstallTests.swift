import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `make install-files` (what `make install` runs after its release build) with the debug binary,
/// into a temporary prefix: binary, generated man page, completions; then `make uninstall`.
@Suite struct InstallTests {
    static let installed = [
        "bin/orderpress", "share/bash-completion/completions/orderpress", "share/fish/vendor_completions.d/orderpress.fish",
        "share/man/man1/orderpress.1", "share/zsh/site-functions/_orderpress",
    ]

    /// Runs `executable`, a path or a name looked up in PATH.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.run([executable] + arguments, environment: environment, executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    static func make(_ target: String, _ variables: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let manual = TestSupport.binary.deletingLastPathComponent().appendingPathComponent("generate-manual")
        try #require(
            FileManager.default.isExecutableFile(atPath: manual.path),
            "\(manual.path) is missing: run `swift build --product generate-manual` first (make test does)")
        return try run("make", ["-s", "-C", TestSupport.repository.path, target, "BINARY=\(TestSupport.binary.path)", "MANTOOL=\(manual.path)"] + variables)
    }

    @Test func installsIntoAPrefixAndUninstalls() throws {
        let prefix = TestSupport.temporaryFolder().appendingPathComponent("x")
        let install = try Self.make("install-files", ["PREFIX=\(prefix.path)"])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(TestSupport.files(in: prefix) == Self.installed)

        let version = try Self.run(prefix.appendingPathComponent("bin/orderpress").path, ["--version"])
        #expect(version.stdout == Version.current + "\n")
        let bash = try String(contentsOf: prefix.appendingPathComponent(Self.installed[1]), encoding: .utf8)
        #expect(bash.contains("complete -o filenames -F _orderpress orderpress"))
        let fish = try String(contentsOf: prefix.appendingPathComponent(Self.installed[2]), encoding: .utf8)
        #expect(fish.contains("complete -c 'orderpress'") || fish.contains("complete -c orderpress"))
        let zsh = try String(contentsOf: prefix.appendingPathComponent(Self.installed[4]), encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef orderpress"))
        for script in [bash, fish, zsh] {
            #expect(script.contains("serve"))
        }

        let manual = try Self.run("man", ["-M", prefix.appendingPathComponent("share/man").path, "orderpress"], environment: ["MANWIDTH": "100", "MANPAGER": "cat"])
        #expect(manual.status == 0, "\(manual.stderr)")
        #expect(manual.stderr == "")
        #expect(manual.stdout.contains("then run `orderpress build` in DIR"))
        #expect(manual.stdout.contains("serve   Preview the built site"))

        let uninstall = try Self.make("uninstall", ["PREFIX=\(prefix.path)"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(TestSupport.files(in: prefix).isEmpty)
    }

    @Test func honoursDestDir() throws {
        let stage = TestSupport.temporaryFolder()
        let install = try Self.make("install-files", ["DESTDIR=\(stage.path)", "PREFIX=/opt/orderpress"])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(TestSupport.files(in: stage) == Self.installed.map { "opt/orderpress/\($0)" })
    }
}
