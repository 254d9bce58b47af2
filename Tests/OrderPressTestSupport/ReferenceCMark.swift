import Foundation

/// The cmark-gfm command line, the reference the site's rendering is held to (`CMarkTests`, `BinaryTests`).
package enum ReferenceCMark {
    /// What the cmark-gfm command prints for each input, run once over all of them.
    package static func commandLineOutput(_ inputs: [String]) throws -> [Data] {
        try inputs.map { input in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/cmark-gfm")
            process.arguments = ["-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter", "-e", "tasklist"]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            try process.run()
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
    }
}
