@testable import OrderPressValidate
import OrderPressTestSupport

extension RowIdentity {
    /// `id:<id>` or `content:<column>=<value>…` (the unit separator between columns); `idCount` is how
    /// many rows of the sheet use `id`. The identities in a state folder are in this form.
    func identity(id: String, idCount: Int, values: [String]) -> String {
        Identity(id: id, idCount: idCount, values: values, rule: self).text(id: id, values: values)
    }
}
