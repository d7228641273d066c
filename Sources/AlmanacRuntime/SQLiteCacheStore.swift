public import AlmanacCore
public import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk cache shared by every `tools` process: SQLite in WAL mode with a busy timeout.
///
/// Each write is one transaction, so a reader sees a whole entry or none, including after a
/// `kill -9` mid-write. A file that is not a database is moved aside and replaced.
public final class SQLiteCacheStore: CacheStore, ProviderStateStore, Sendable {
    private let pool: DatabaseQueue
    /// The database file.
    public let path: String
    /// Where a damaged cache file was moved when this store replaced it (nil: it was fine).
    let movedAside: String?

    /// Opens (creating if needed) `cache.sqlite` in `directory`.
    init(directory: URL) throws {
        let existed = FileManager.default.fileExists(atPath: directory.path)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The cache holds calendar, page and search text: a folder made here is its owner's
        // alone (one the operator made is left as it is; the files in it are 0600 regardless).
        if !existed { chmod(directory.path, 0o700) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        self.path = path
        do {
            pool = try Self.open(path)
            movedAside = nil
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        {
            // A damaged cache is only lost optimisation: keep it for inspection, start afresh.
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            pool = try Self.open(path)
            movedAside = aside
        }
    }

    /// Why a cache folder could not be used, in a few words (Foundation's NSError description
    /// on Linux is a multi-line dump of its user info).
    static func reason(_ error: any Error) -> String {
        if let database = error as? DatabaseError {
            return database.message ?? "SQLite error \(database.resultCode.rawValue)"
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))).lowercased() }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteFileExists: return "a file is in the way"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteOutOfSpace: return "no space left on device"
        default: return "cannot be created or opened"
        }
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        keepPrivate(path)
        var configuration = Configuration()
        // Many processes share the file: wait for the lock instead of failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(10)
        configuration.label = "almanac.cache"
        // One connection is enough for a short-lived process and cheaper to open than a pool;
        // WAL (a property of the file) still lets other processes read while one writes.
        configuration.prepareDatabase { db in
            try switchToWAL(db)
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "entry", options: .ifNotExists) { table in
                table.primaryKey("key", .text)
                table.column("tool", .text).notNull()
                table.column("provider", .text).notNull()
                table.column("fetchedAt", .double).notNull()
                table.column("payload", .blob).notNull()
            }
            try db.create(table: "note", options: .ifNotExists) { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
            try db.create(table: "state", options: .ifNotExists) { table in
                table.primaryKey("key", .text)
                table.column("value", .blob).notNull()
            }
        }
        // Skip the write transaction when already migrated: most runs only read. GRDB's migrator
        // is not safe across processes (two first runs both apply v1: a UNIQUE failure, or "no such
        // table" mid-creation), so processes take turns on a lock file beside the database; the
        // migrator then sees what the one before it did.
        let migrated = (try? pool.read { db in try migrator.hasCompletedMigrations(db) }) ?? false
        if !migrated { try withFileLock(path + ".lock") { try migrator.migrate(pool) } }
        return pool
    }

    /// Makes the database file 0600 before SQLite opens it: SQLite creates it 0644 (less the
    /// umask), and its -wal and -shm files take the database file's mode. Files left readable to
    /// others by an earlier version are narrowed, when this user owns them.
    private static func keepPrivate(_ path: String) {
        let descriptor = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor >= 0 { Glibc.close(descriptor) }
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o077 != 0 else { continue }
            chmod(file, 0o600)
        }
    }

    /// Runs `work` holding an exclusive lock on `lockPath` (created 0600 if missing), so processes
    /// opening the same cache run it one at a time; closing the descriptor releases it.
    private static func withFileLock<T>(_ lockPath: String, _ work: () throws -> T) throws -> T {
        let descriptor = Glibc.open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return try work() }  // an unlockable folder: no worse than before
        defer { Glibc.close(descriptor) }
        // A POSIX record lock (Swift cannot name glibc's flock function: a struct shares its name).
        while lockf(descriptor, F_LOCK, 0) != 0, errno == EINTR {}
        return try work()
    }

    /// Puts a new file in WAL mode. Processes starting together on a new cache all try it: the
    /// switch needs an exclusive lock, and SQLite answers BUSY at once (no busy handler, to avoid a
    /// deadlock) to all but one, so the others wait briefly until the file is WAL (bounded: ~2 s).
    private static func switchToWAL(_ db: Database) throws {
        for attempt in 0..<100 {
            do {
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" { return }
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 99 {
                usleep(20_000)
            }
        }
    }

    /// The entry for `key`.
    public func entry(for key: String) async throws -> CacheEntry? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE key = ?", arguments: [key]) else {
                return nil
            }
            return CacheEntry(
                key: row["key"], tool: row["tool"], provider: row["provider"],
                fetchedAt: Date(timeIntervalSince1970: row["fetchedAt"]), payload: row["payload"])
        }
    }

    /// Stores an entry: a small one by one statement, a big one streamed into its row in one transaction.
    public func store(_ entry: CacheEntry) async throws {
        guard entry.payload.count >= Self.streamedPayloadBytes else {
            // One statement is a transaction by itself, prepared once per connection: a server
            // stores an entry per call (parsing the SQL and BEGIN/COMMIT were most of its cost).
            try await pool.writeWithoutTransaction { db in
                try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO entry (key, tool, provider, fetchedAt, payload) VALUES (?, ?, ?, ?, ?)"
                )
                .execute(arguments: [
                    entry.key, entry.tool, entry.provider, entry.fetchedAt.timeIntervalSince1970, entry.payload,
                ])
            }
            return
        }
        try await pool.write { db in
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO entry (key, tool, provider, fetchedAt, payload) VALUES (?, ?, ?, ?, zeroblob(?))",
                arguments: [
                    entry.key, entry.tool, entry.provider, entry.fetchedAt.timeIntervalSince1970, entry.payload.count,
                ])
            try Self.writeInPlace(entry.payload, row: db.lastInsertedRowID, db)
        }
    }

    /// Payloads from this size on are written into a zero-filled blob of their size a MB at a time:
    /// bound as a value, SQLite copies the bytes once for the binding and once more into the
    /// record, so a 19 MB calendar feed cost 40 MB of heap at once, the peak of the whole call.
    static let streamedPayloadBytes = 1 << 20

    /// Writes `payload` into the `payload` blob of `row` (as big as `payload`), within the caller's
    /// transaction.
    private static func writeInPlace(_ payload: Data, row: Int64, _ db: Database) throws {
        var blob: OpaquePointer?
        var code = sqlite3_blob_open(db.sqliteConnection, "main", "entry", "payload", row, 1, &blob)
        defer { sqlite3_blob_close(blob) }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot open the cached payload")
        }
        code = payload.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32 in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let length = min(1 << 20, bytes.count - offset)
                let written = sqlite3_blob_write(blob, base + offset, Int32(length), Int32(offset))
                guard written == SQLITE_OK else { return written }
                offset += length
            }
            return SQLITE_OK
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot write the cached payload")
        }
    }

    /// Removes every entry and note (provider state such as CalDAV sync tokens goes too).
    public func removeAll() async throws -> Int {
        try await pool.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? 0
            try db.execute(sql: "DELETE FROM entry; DELETE FROM note; DELETE FROM state")
            return count
        }
    }

    /// A note.
    public func note(for key: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM note WHERE key = ?", arguments: [key])
        }
    }

    /// Sets or clears a note.
    public func setNote(_ value: String?, for key: String) async throws {
        try await pool.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO note (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM note WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Provider state.
    public func value(for key: String) async -> Data? {
        try? await pool.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM state WHERE key = ?", arguments: [key])
        }
    }

    /// Sets or removes provider state.
    public func setValue(_ value: Data?, for key: String) async {
        try? await pool.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM state WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Reserves a request slot in one IMMEDIATE transaction: the write lock is taken before the
    /// read, so two processes never read the same last slot. Without a database it waits nothing
    /// beyond `now` (the cache is an optimisation; the call must not fail for it).
    public func reserveSlot(_ key: String, interval: TimeInterval, now: Date) async -> Date {
        let reserved = try? await pool.writeWithoutTransaction { db -> Date in
            var slot = now
            try db.inTransaction(.immediate) {
                let last = try Data.fetchOne(db, sql: "SELECT value FROM state WHERE key = ?", arguments: [key])
                slot = RequestSlot.next(after: RequestSlot.decode(last), interval: interval, now: now)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                    arguments: [key, RequestSlot.encode(slot)])
                return .commit
            }
            return slot
        }
        return reserved ?? now
    }

    /// Counts for `tools doctor`/`tools cache`: entries and SQLite's own integrity verdict.
    public func health() async throws -> (entries: Int, integrity: String) {
        try await pool.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? 0
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "unknown"
            return (count, check)
        }
    }
}
