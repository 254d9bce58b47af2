/// Why the generator writes nothing: a template or model it cannot compile, named with where it is.
struct Refusal: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
