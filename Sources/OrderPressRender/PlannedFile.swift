import Foundation
import OrderPressOutput

/// A file render says exists, other than a page (a page is planned as a `PageKind.Page`): where it goes,
/// into which trees (a chart goes into both, the same bytes), what it is made from, and how to make it.
/// Render plans; `PlanRunner` decides whether to make it.
package struct PlannedFile {
    package var path: String
    package var trees: [OutputTree]
    /// Nil: the file declares nothing and is always made (publish still compares its bytes).
    package var dependsOn: Dependency?
    package var make: () -> Data
}
