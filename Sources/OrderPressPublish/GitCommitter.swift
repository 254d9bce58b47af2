import Foundation

/// Commits the Markdown folder after a build that changed it, when that folder is in a git work tree.
/// A failure is reported as a warning: the site is published either way.
package struct GitCommitter: Sendable {
    package var folder: URL

    /// Commits after a publish that wrote or removed a file in the folder; nil when there was nothing
    /// to commit or the commit worked, else the warning.
    package func commit(after report: PublishReport, message: String) -> String? {
        let changed = (report.written + report.removed).contains { $0.path.hasPrefix(folder.path + "/") }
        return changed ? commit(message: message) : nil
    }

    /// Commits every change under the folder (and nothing else); returns a warning when git failed.
    package func commit(message: String) -> String? {
        guard (try? git(["rev-parse", "--is-inside-work-tree"]))?.output == "true\n" else {
            return "git: \(folder.path) is not inside a git work tree; nothing was committed"
        }
        do {
            let status = try git(["status", "--porcelain", "--", "."])
            guard status.status == 0 else { return "git status failed: \(status.output.trimmed)" }
            if status.output.isEmpty { return nil }
            let add = try git(["add", "-A", "--", "."])
            guard add.status == 0 else { return "git add failed: \(add.output.trimmed)" }
            let commit = try git(["commit", "--quiet", "-m", message, "--", "."])
            guard commit.status == 0 else { return "git commit failed: \(commit.output.trimmed)" }
            return nil
        } catch {
            return "git could not be run (\(error)); install git or set [git] commit = false"
        }
    }

    private func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
    package init(folder: URL) {
        self.folder = folder
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
