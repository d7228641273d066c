import AlmanacCore
import Testing

@testable import AlmanacCalendar

/// The calendar's providers are listed once: the run's chain and the registry's descriptors are
/// the same list, and each provider's name comes from its descriptor.
@Suite("calendar chain and descriptors")
struct CalendarChainTests {
    @Test("the descriptors are the chain's, in its order, and each provider is named by its descriptor")
    func descriptorsFromChain() {
        let chain = CalendarTool.chain()
        #expect(CalendarTool().providerDescriptors.map(\.name) == ["ics-file", "ics-url", "caldav"])
        #expect(chain.map(\.name) == CalendarTool().providerDescriptors.map(\.name))
        for provider in chain { #expect(provider.name == provider.descriptor.name) }
    }

    @Test("the chain passes the sync switch to CalDAV")
    func syncSwitch() throws {
        let caldav = try #require(CalendarTool.chain(useCalDAVSync: false).last as? CalDAVProvider)
        #expect(!caldav.useSync)
    }

    @Test("the calendar declares libical and libxml2 for tools doctor")
    func nativeLibraries() {
        #expect(CalendarTool().nativeLibraries.map(\.name) == ["libical", "libxml2"])
        #expect(CalendarTool().nativeLibraries.allSatisfy { !$0.essential })
    }
}
