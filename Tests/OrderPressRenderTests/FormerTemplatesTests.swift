import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressRender
import OrderPressTestSupport

/// A site made by an earlier `orderpress init` holds copies of that version's templates: unedited, they
/// must not keep the site on old pages after an upgrade; edited, they are the site's own.
@Suite struct FormerTemplatesTests {
    /// The repository's history is at hand (a clone, not a tarball).
    static let hasHistory = FileManager.default.fileExists(atPath: TestSupport.repository.appendingPathComponent(".git").path)

    static func git(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", TestSupport.repository.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// The newest committed version of `file` that differs from the one built in now.
    static func earlierVersion(of file: String) throws -> Data? {
        let commits = String(decoding: try git(["log", "--format=%H", "--", "templates/\(file)"]), as: UTF8.self).split(separator: "\n")
        for commit in commits {
            let text = try git(["show", "\(commit):templates/\(file)"])
            if !text.isEmpty, text != Data(DefaultTemplates.files[file]!.utf8) { return text }
        }
        return nil
    }

    @Test(.enabled(if: hasHistory)) func anUneditedCopyOfAnEarlierVersionIsTheBuiltInTemplate() throws {
        let folder = TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in ["changes.md.mustache", "group.md.mustache", "style.css"] {
            let old = try #require(try Self.earlierVersion(of: file), "\(file) has no earlier version")
            try old.write(to: folder.appendingPathComponent(file))
        }
        let upgraded = try TemplateSet.load(overrides: folder)
        let builtIn = try TemplateSet.load(overrides: nil)
        #expect(upgraded.builtIn == builtIn.builtIn)
        #expect(upgraded.stylesheet == builtIn.stylesheet)
        #expect(upgraded.digest == builtIn.digest)
    }

    @Test(.enabled(if: hasHistory)) func anEditedCopyOfAnEarlierVersionStaysTheSitesOwn() throws {
        let folder = TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = try #require(try Self.earlierVersion(of: "changes.md.mustache"))
        try (Data("<!-- ours -->\n".utf8) + old).write(to: folder.appendingPathComponent("changes.md.mustache"))
        let templates = try TemplateSet.load(overrides: folder)
        #expect(!templates.builtIn.contains("changes"))
        #expect(templates.digest != (try TemplateSet.load(overrides: nil)).digest)
    }

    /// No digest of an earlier version is today's: an unedited copy of today's is built in by its text.
    @Test func noEarlierDigestIsTodays() {
        for (file, digests) in FormerTemplates.digests {
            let text = try? #require(DefaultTemplates.files[file], "\(file) is no built-in template")
            #expect(!digests.contains(ContentDigest(of: Data((text ?? "").utf8)).description), "\(file)")
        }
    }
}
