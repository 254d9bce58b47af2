import Foundation
import PropertyBased
import Testing

@testable import OrderPressServe
import OrderPressTestSupport

@Suite struct RequestHeadTests {
    static let forwarded = Array("GET /a%20b.html?x=1 HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)

    @Test(arguments: [
        "GET /a%20b.html?x=1 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: 5\r\n\r\nhello",
        "GET /a%20b.html?x=1 HTTP/1.1\nHost: x\n\n",
        "\r\n\r\nGET /a%20b.html?x=1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n Folded: on\r\n\r\nGET /next HTTP/1.1\r\n\r\n",
    ])
    func aCompleteHeadIsPassedOnAsItsRequestLineAlone(request: String) {
        var head = RequestHead()
        #expect(head.append(Array(request.utf8)) == .complete(forwarded: Self.forwarded))
    }

    /// However the bytes are cut into packets, the outcome is the same.
    @Test func packetsMakeNoDifference() async {
        let request = Array("GET /a%20b.html?x=1 HTTP/1.1\r\nHost: x\r\nCookie: a=1\r\n\r\n".utf8)
        await propertyCheck(count: 300, input: Gen.int(in: 1...request.count).array(of: 1...8)) { cuts in
            var head = RequestHead()
            var outcome = RequestHead.Outcome.needMore
            var start = 0
            for cut in (cuts + [request.count]).sorted() where cut > start && outcome == .needMore {
                outcome = head.append(request[start..<cut])
                start = cut
            }
            if outcome == .needMore, start < request.count { outcome = head.append(request[start...]) }
            #expect(outcome == .complete(forwarded: Self.forwarded))
        }
    }

    @Test func anIncompleteHeadNeedsMore() {
        var head = RequestHead()
        #expect(head.append(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) == .needMore)
        #expect(head.append(Array("\r".utf8)) == .needMore)
        #expect(head.append(Array("\n".utf8)) == .complete(forwarded: Array("GET / HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)))
    }

    @Test func anOverlongRequestLineIsRefusedBeforeItEnds() {
        var head = RequestHead()
        let line = "GET /" + String(repeating: "x", count: RequestHead.maxRequestLineBytes)
        #expect(head.append(Array(line.utf8)) == .requestLineTooLong)
        var ended = RequestHead()
        #expect(ended.append(Array((line + " HTTP/1.1\r\n").utf8)) == .requestLineTooLong)
        var fits = RequestHead()
        let longest = "GET /" + String(repeating: "x", count: RequestHead.maxRequestLineBytes - 14) + " HTTP/1.1"
        #expect(longest.utf8.count == RequestHead.maxRequestLineBytes)
        #expect(fits.append(Array((longest + "\r\n\r\n").utf8)) == .complete(forwarded: Array((longest + "\r\nConnection: close\r\n\r\n").utf8)))
    }

    @Test func anOverlongHeadIsRefusedAtItsBoundWhateverFollows() {
        var head = RequestHead()
        #expect(head.append(Array("GET / HTTP/1.1\r\n".utf8)) == .needMore)
        let field = Array("X: \(String(repeating: "a", count: 1000))\r\n".utf8)
        var outcome = RequestHead.Outcome.needMore
        var fed = 16
        while outcome == .needMore {
            outcome = head.append(field)
            fed += field.count
        }
        #expect(outcome == .headTooLarge)
        #expect(fed > RequestHead.maxHeadBytes && fed <= RequestHead.maxHeadBytes + field.count)
        // A megabyte at once is refused as soon, and not kept.
        var big = RequestHead()
        #expect(big.append(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n").utf8)) == .headTooLarge)
    }
}
