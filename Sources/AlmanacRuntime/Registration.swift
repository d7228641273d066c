import AlmanacCalendar
import AlmanacCore
import AlmanacSearch
import AlmanacSports
import AlmanacWeather

extension Runtime {
    /// Every tool Almanac ships, in listing order.
    public static func defaultTools() -> [any Tool] {
        [SportsTool(), WeatherTool(), CalendarTool(), SearchTool()]
    }

    /// The web searcher other tools fall back to, when a key is configured.
    static func webSearcher(_ settings: Settings) -> (any WebSearching)? {
        BraveWebSearch.isConfigured(settings) ? BraveWebSearch() : nil
    }
}
