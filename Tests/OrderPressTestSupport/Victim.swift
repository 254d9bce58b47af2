import Foundation
import Testing

/// Files outside every configured folder, and a way to tell that nothing touched them: the same
/// names, bytes and (deliberately old) modification times afterwards.
package struct Victim {
    package let folder = TestSupport.temporaryFolder()
    package let files: [String: String]
    package static let oldTime = Date(timeIntervalSince1970: 1_000_000_000)

    package init(_ files: [String: String] = ["victim.html": "not OrderPress's", "groups/x.md": "not OrderPress's either"]) {
        self.files = files
        TestSupport.write(files, in: folder)
        for path in files.keys {
            try! FileManager.default.setAttributes([.modificationDate: Self.oldTime], ofItemAtPath: folder.appendingPathComponent(path).path)
        }
    }

    /// The default victim's single file.
    package var file: URL { folder.appendingPathComponent("victim.html") }

    package func expectUntouched(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try TestSupport.contents(of: folder) == files.mapValues { Data($0.utf8) }, sourceLocation: sourceLocation)
        for path in files.keys {
            let date = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.modificationDate] as? Date
            #expect(date == Self.oldTime, "\(path) was touched", sourceLocation: sourceLocation)
        }
    }
}
