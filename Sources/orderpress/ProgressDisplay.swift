import ArgumentParser
import Foundation
import OrderPressPipeline

/// `--progress auto|always|never`.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    var isEnabled: Bool {
        switch self {
        case .auto: isatty(STDERR_FILENO) == 1
        case .always: true
        case .never: false
        }
    }
}

/// One line on stderr naming the step being run, rewritten in place and cleared at the end.
struct ProgressDisplay: Sendable {
    var enabled: Bool

    var show: @Sendable (Step) -> Void {
        let enabled = enabled
        return { step in
            guard enabled else { return }
            let position = (Step.allCases.firstIndex(of: step) ?? 0) + 1
            FileHandle.standardError.write(Data("\r\u{1B}[2K[\(position)/\(Step.allCases.count)] \(step.rawValue)…".utf8))
        }
    }

    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
