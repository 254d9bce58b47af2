import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

@Suite struct RetryPolicyTests {
    static func policy(random: Double) -> RetryPolicy {
        var policy = RetryPolicy()
        policy.random = { random }
        return policy
    }

    @Test(arguments: [
        // attempt, jitter, Retry-After, spent so far, expected wait
        (1, 0.0, Duration?.none, Duration.zero, Duration?.some(.milliseconds(500))),
        (1, 0.999, nil, .zero, .some(.nanoseconds(999_500_000))),
        (2, 0.5, nil, .zero, .some(.milliseconds(1500))),
        (3, 0.5, nil, .zero, .some(.seconds(3))),
        (4, 0.5, nil, .zero, nil),  // the fourth attempt was the last
        (1, 0.5, Duration.seconds(7), .zero, .some(.seconds(7))),
        (1, 0.5, Duration.seconds(61), .zero, nil),  // 61 s + one more 30 s timeout overruns 90 s
        (2, 0.5, nil, .seconds(58), .some(.milliseconds(1500))),
        (2, 0.5, nil, .seconds(58) + .milliseconds(600), nil),  // 58.6 + 1.5 + 30 > 90
    ])
    func waitsGrowAndStayWithinThreeTimeouts(attempt: Int, random: Double, retryAfter: Duration?, spent: Duration, expected: Duration?) {
        let delay = Self.policy(random: random).delay(afterAttempt: attempt, retryAfter: retryAfter, spent: spent, timeout: .seconds(30))
        #expect(delay == expected)
    }

    @Test func theLongestRunFitsTheBudget() {
        let policy = Self.policy(random: 0.999)
        let timeout = Duration.seconds(1)
        var spent = timeout
        var attempt = 1
        while let delay = policy.delay(afterAttempt: attempt, retryAfter: nil, spent: spent, timeout: timeout) {
            spent += delay + timeout
            attempt += 1
        }
        #expect(spent <= timeout * 3)
        #expect(attempt == 2)
    }

    @Test(arguments: [("120", Duration?.some(.seconds(120))), (" 0 ", .some(.zero)), ("Wed, 21 Oct 2026 07:28:00 GMT", nil), ("-1", nil), (nil, nil)])
    func readsRetryAfterSeconds(header: String?, expected: Duration?) {
        #expect(HTTPReply.retryAfter(header) == expected)
    }
}
