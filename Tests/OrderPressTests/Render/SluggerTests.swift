import Testing

@testable import OrderPress

@Suite struct SluggerTests {
    @Test(arguments: [
        ("SF office boba", "sf-office-boba"), ("週五下午茶", "週五下午茶"), ("../../etc/passwd", "etc-passwd"),
        ("a\\b/c", "a-b-c"), ("  Kevin   Lin ", "kevin-lin"), ("Crème Brûlée", "crème-brûlée"), ("...", ""),
    ])
    func makesReadableSlugs(name: String, slug: String) {
        #expect(Slugger.slug(name) == slug)
    }

    @Test func slugsAreUniqueSafeAndStable() {
        let names = ["Amy!", "amy?", "..", "/", "", "CON", "index", String(repeating: "長", count: 200), "Amy"]
        let slugs = Slugger.assign(names, fallback: "person")
        #expect(Set(slugs.values).count == names.count)
        for slug in slugs.values {
            #expect(!slug.isEmpty)
            #expect(!slug.contains("/") && !slug.contains("\\") && !slug.hasPrefix("."))
            #expect(!Slugger.reserved.contains(slug))
            #expect(slug.count <= Slugger.maximumLength + 9)
        }
        #expect(slugs["Amy"] == "amy")
        #expect(slugs["Amy!"] == "amy-\(Slugger.hash("Amy!", length: 6))")
        #expect(slugs["CON"] == "con-\(Slugger.hash("CON", length: 6))")
        #expect(Slugger.assign(names.reversed(), fallback: "person") == slugs)
    }
}
