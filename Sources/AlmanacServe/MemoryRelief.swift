import AlmanacCore

#if canImport(Glibc)
    import Glibc
#endif

/// Gives memory back to the system after a call that may have used a lot of it, and keeps big
/// buffers out of glibc's arenas.
///
/// A calendar call on a big feed allocates hundreds of megabytes briefly (the text, libical's
/// tree, the expansion); glibc keeps the freed pages in its arenas, so a long-lived server stayed
/// near its peak after such calls. `malloc_trim` returns the free pages; it costs a walk of the
/// arenas, so only calls of the tools that read whole documents do it.
enum MemoryRelief {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32

    /// glibc's `M_MMAP_THRESHOLD` (malloc.h).
    private static let mmapThresholdOption: Int32 = -3
    /// Blocks from this size on get pages of their own, unmapped when freed.
    static let mmapThreshold: Int32 = 1 << 20

    /// Fixes glibc's mmap threshold at 1 MB for the server's lifetime.
    ///
    /// glibc raises the threshold to the size of each mmapped block freed (up to 32 MB), so after
    /// one call on a big calendar every later multi-MB buffer (the feed's bytes and text, the
    /// arrays of events) came from the arenas, where freed memory stays and fragments. Measured on
    /// the 19 MB feed, six calls through a debug `tools serve`: peak 296 → 165 MB, RSS after the
    /// calls 150 → 72 MB (idle 53). A fixed threshold turns the raising off.
    static func keepBigBlocksApart() {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Option.self)(mmapThresholdOption, mmapThreshold)
        #endif
    }

    /// glibc's `malloc_trim`, looked up once (Swift's Glibc module does not export malloc.h).
    private static let trim: Trim? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    /// Trims after a call of `tool` when it declares ``ToolTraits/heavy`` (plugin tools found
    /// after the server started included: the trait travels with the tool, not with a list).
    static func afterCall(_ tool: (any Tool)?) {
        guard needsTrim(after: tool) else { return }
        _ = trim?(0)
    }

    static func needsTrim(after tool: (any Tool)?) -> Bool {
        tool?.traits.contains(.heavy) ?? false
    }
}
