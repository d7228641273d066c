import AlmanacCore
import Foundation
import Testing

@testable import AlmanacLLM

/// Requests to change the calendar read into its write commands (#33 point 8); `tools ask` then
/// confirms before anything is written.
@Suite("Routing calendar writes")
struct WriteRoutingTests {
    /// Thu 26 Mar 2026, 11:00 in Berlin.
    let router = Router(
        now: Date(timeIntervalSince1970: 1_774_519_200), timeZone: TimeZone(identifier: "Europe/Berlin")!)

    func route(_ question: String) -> [String] { router.route(question).map(\.description) }

    @Test(
        "the four requests of the issue, and variants",
        arguments: [
            ("remind me to call mom tomorrow at 6", "calendar remind 'call mom' --due 'tomorrow 18:00'"),
            ("add dentist thursday 3pm", "calendar add dentist --at 'thursday 15:00'"),
            ("move my 3pm to 4", "calendar move 15:00 --to 16:00"),
            ("I finished the tax return", "calendar done 'tax return'"),
            ("Remind me to water the plants tonight at 8", "calendar remind 'water the plants' --due 'tonight 20:00'"),
            ("please remind me to buy milk", "calendar remind 'buy milk'"),
            (
                "remind me tomorrow at 9am to send the invoice",
                "calendar remind 'send the invoice' --due 'tomorrow 09:00'"
            ),
            ("add lunch with Sam to my calendar friday at noon", "calendar add 'lunch with Sam' --at 'friday 12:00'"),
            ("schedule a haircut saturday 10:30am", "calendar add haircut --at 'saturday 10:30'"),
            ("add mom's birthday sunday", "calendar add 'mom'\\''s birthday' --at sunday --all-day"),
            ("reschedule the dentist to friday 2pm", "calendar move dentist --to 'friday 14:00'"),
            ("move my 11am to 1", "calendar move 11:00 --to 13:00"),
            ("I'm done with the slides", "calendar done slides"),
            ("mark the slides as done", "calendar done slides"),
            ("I completed my expense report", "calendar done 'expense report'"),
        ])
    func writes(_ question: String, _ expected: String) {
        #expect(route(question) == [expected], "\(question)")
    }

    @Test(
        "questions that only look like writes stay reads",
        arguments: [
            ("schedule for the lakers", "sports"), ("put the kettle on", "search"),
            ("what's on my calendar tomorrow", "calendar tomorrow"), ("move to lisbon", "search"),
            ("add 5 to 10", "search"),
        ])
    func reads(_ question: String, _ prefix: String) {
        let routes = route(question)
        #expect(routes.first?.hasPrefix(prefix) == true, "\(question): \(routes)")
        let writes = ["add", "remind", "move", "done"].map { "calendar \($0) " }
        #expect(!routes.contains { route in writes.contains { route.hasPrefix($0) } }, "\(routes)")
    }
}
