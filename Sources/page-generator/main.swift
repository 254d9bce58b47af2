import Foundation

// page-generator [--check | --self-test] [--root <repository>] [--output <folder>]
// Run by `make templates` from the repository's root: writes the generated files (PageGenerator).
// `--check` writes nothing and fails when a generated file is missing, stale, edited by hand or left
// over; `--self-test` checks that every construct it cannot compile is refused (SelfTest).
/// The arguments besides `--root` and `--output`, and those two.
func options(_ arguments: [String]) -> (rest: [String], root: String?, output: String?) {
    var (rest, root, output): ([String], String?, String?) = ([], nil, nil)
    var at = 0
    while at < arguments.count {
        if ["--root", "--output"].contains(arguments[at]), at + 1 < arguments.count {
            if arguments[at] == "--root" { root = arguments[at + 1] } else { output = arguments[at + 1] }
            at += 2
        } else {
            rest.append(arguments[at])
            at += 1
        }
    }
    return (rest, root, output)
}
let (arguments, rootOption, outputOption) = options(Array(CommandLine.arguments.dropFirst()))
let root = URL(fileURLWithPath: rootOption ?? FileManager.default.currentDirectoryPath)
let output = outputOption.map { URL(fileURLWithPath: $0, relativeTo: root) }
    ?? root.appendingPathComponent(PageGenerator.outputFolder)
let generator = PageGenerator(root: root, output: output)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("page-generator: \(message)\n".utf8))
    exit(1)
}

do throws(Refusal) {
    switch arguments {
    case ["--self-test"]:
        let failures = SelfTest.run(root: root)
        if !failures.isEmpty { fail("--self-test:\n" + failures.joined(separator: "\n")) }
    case ["--check"]:
        let wanted = try generator.files()
        let found = generator.existing()
        let stale = Set(wanted.keys).union(found.keys).filter { wanted[$0] != found[$0] }.sorted()
        if !stale.isEmpty {
            fail("\(stale.joined(separator: ", ")) in \(PageGenerator.outputFolder) not what the templates compile to: run make templates")
        }
    case []:
        let wanted = try generator.files()
        let found = generator.existing()
        for (name, text) in wanted where found[name] != text {
            do {
                try Data(text.utf8).write(to: output.appendingPathComponent(name))
            } catch {
                fail("cannot write \(name): \(error.localizedDescription)")
            }
        }
        for name in found.keys where wanted[name] == nil {
            try? FileManager.default.removeItem(at: output.appendingPathComponent(name))
        }
    default:
        fail("usage: page-generator [--check | --self-test] [--root <repository>] [--output <folder>]")
    }
} catch {
    fail(error.description)
}
