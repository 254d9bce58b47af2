import Foundation
import Mustache
import OrderPressConfig

/// The page templates and the layout as swift-mustache parsed them: parsed at once, or on first use
/// (`TemplateSet`), by whichever thread asks first, once.
final class CompiledTemplates: @unchecked Sendable {
    package typealias Compiled = (pages: MustacheLibrary, layout: MustacheTemplate)

    private let lock = NSLock()
    // Guarded by `lock`: the parsed templates once made; until then, how to make them.
    private var made: Compiled?
    private var make: (@Sendable () throws(ConfigurationError) -> Compiled)?

    init(_ compiled: Compiled) {
        made = compiled
    }

    /// Templates that are the built-in ones, which parse without error (`TemplateTests`, `GeneratedPagesTests`).
    init(builtIn make: @escaping @Sendable () throws(ConfigurationError) -> Compiled) {
        self.make = make
    }

    package var value: Compiled {
        lock.withLock {
            if let made { return made }
            do throws(ConfigurationError) {
                let compiled = try make!()
                (made, make) = (compiled, nil)
                return compiled
            } catch {
                // Only a built-in template is parsed here, and every one is parsed in the tests.
                fatalError("a built-in template does not parse: \(error)")
            }
        }
    }
}
