import Testing

@testable import OrderPress

@Suite struct OrdersCSVTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"), ("+1", "'+1"), ("-ice", "'-ice"),
        ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"), ("\nx", "'\nx"), ("  =1+1", "'  =1+1"),
        ("＝1+1", "'＝1+1"), ("＋1", "'＋1"), ("－1", "'－1"), ("＠x", "'＠x"),
        ("35", "35"), ("1-2", "1-2"), ("a=b", "a=b"), ("", ""), ("半糖 少冰", "半糖 少冰"),
    ])
    func prefixesCellsThatStartLikeAFormula(cell: String, written: String) {
        #expect(OrdersCSV.neutralized(cell) == written)
    }

    /// Per scalar: a comma or a quote carrying a combining mark is still a comma or a quote to a CSV reader.
    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\r\nlines", "\"two\r\nlines\""),
        ("a,\u{301}b", "\"a,\u{301}b\""), ("x\"\u{301}", "\"x\"\"\u{301}\""), ("lf\n", "\"lf\n\""),
    ])
    func quotesPerScalar(cell: String, written: String) {
        #expect(OrdersCSV.quoted(cell) == written)
    }
}
