import Foundation
import Testing
import OrderPressTestSupport


/// `orderpress init DIR` given a DIR that names no new folder: refused, and nothing made anywhere.
@Suite struct InitArgumentTests {
    /// `URL(fileURLWithPath: "")` is the current folder: `init ""` (an unset shell variable) turned
    /// the folder it ran in into a site.
    @Test(arguments: [
        ("", "orderpress: init: no folder given (an empty argument); name the new site's folder, e.g. orderpress init tea-run\n"),
        ("   ", "orderpress: init: '   ' is only blank space; name the new site's folder, e.g. orderpress init tea-run\n"),
    ])
    func anEmptyOrBlankFolderIsAUsageError(directory: String, message: String) throws {
        let folder = TestSupport.temporaryFolder()
        let result = try TestSupport.run(["init", directory], in: folder)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test(arguments: ["\t", "\n", " \t\n "])
    func controlBlanksAreRefusedToo(directory: String) throws {
        let folder = TestSupport.temporaryFolder()
        let result = try TestSupport.run(["init", directory], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("orderpress: init: '"))
        #expect(result.stderr.hasSuffix("' is only blank space; name the new site's folder, e.g. orderpress init tea-run\n"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func aFileWhereTheFolderWouldBeIsLeftAsItWas() throws {
        let folder = TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("site")
        try Data("mine".utf8).write(to: file)
        let result = try TestSupport.run(["init", "site"], in: folder)
        #expect(result.status == 73)
        #expect(result.stderr == "orderpress: init: \(file.path) is not a folder; choose a new or empty folder\n")
        #expect(try Data(contentsOf: file) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["site"])
    }

    /// A name with blanks around real characters is a name: made as given.
    @Test func aNameWithSpacesIsAFolder() throws {
        let folder = TestSupport.temporaryFolder()
        let result = try TestSupport.run(["init", " tea run "], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(" tea run /orderpress.toml").path))
    }
}
