#if canImport(Glibc)
    import Glibc
#endif

/// Gives memory back to the system after a call that may have used a lot of it.
///
/// A calendar call on a big feed allocates hundreds of megabytes briefly (the text, libical's
/// tree, the expansion); glibc keeps the freed pages in its arenas, so a long-lived server stayed
/// near its peak after such calls. `malloc_trim` returns the free pages; it costs a walk of the
/// arenas, so only calls of the tools that read whole documents do it.
enum MemoryRelief {
    static let heavyTools: Set<String> = ["calendar"]

    private typealias Trim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim`, looked up once (Swift's Glibc module does not export malloc.h).
    private static let trim: Trim? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    static func afterCall(_ tool: String) {
        guard heavyTools.contains(tool) else { return }
        _ = trim?(0)
    }
}
