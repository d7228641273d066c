public import AlmanacCore
public import Foundation
import Logging
import PostgresNIO

/// The cache, notes (rate-limit resets such as Retry-After and Nominatim's interval) and provider
/// state in PostgreSQL, shared by several `tools serve` hosts (`ALMANAC_CACHE_URL=postgres://...`).
///
/// Every write is one statement (an upsert), so PostgreSQL commits a whole row or nothing: a host
/// killed mid-write leaves the previous entry or the new one, never half of one. An entry is only
/// replaced by one fetched at the same time or later, so a slow host cannot overwrite a newer answer.
public final class PostgresCacheStore: CacheStore, ProviderStateStore, Sendable {
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger

    /// Where the store connects, for messages (never the password).
    public let location: String

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`) and creates the
    /// tables if they are missing.
    ///
    /// - Throws: ``AlmanacError`` (usage) for a malformed URL, (configuration) when the server
    ///   cannot be reached or refuses; the message never holds the password.
    public static func connect(url: String, timeout: Duration = .seconds(10)) async throws -> PostgresCacheStore {
        let store = try PostgresCacheStore(url: url)
        do {
            try await Deadline.run(timeout) { try await store.migrate() }
        } catch {
            store.close()
            throw AlmanacError.configuration(
                "cannot use the PostgreSQL cache at \(store.location): \(Self.describe(error))",
                suggestion: "check ALMANAC_CACHE_URL and that the server accepts connections")
        }
        return store
    }

    init(url: String) throws {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else {
            throw AlmanacError.usage(
                "ALMANAC_CACHE_URL is not a postgres:// URL with a user and a host",
                suggestion: "e.g. ALMANAC_CACHE_URL=postgres://almanac@127.0.0.1:5432/almanac")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let port = components.port ?? 5432
        location = "\(host):\(port)/\(database.isEmpty ? user : database)"
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: components.user?.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding, database: database.isEmpty ? nil : database,
            tls: .disable)
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 8
        var logger = Logger(label: "almanac.postgres")
        logger.logLevel = .critical
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    /// Stops the connection pool.
    public func close() { runner.cancel() }

    deinit { runner.cancel() }

    private func migrate() async throws {
        // Hosts starting together would race on CREATE TABLE: one advisory lock orders them.
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7716207)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS almanac_entry (key text PRIMARY KEY, tool text NOT NULL,
                provider text NOT NULL, fetched_at double precision NOT NULL, payload bytea NOT NULL)
                """, logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS almanac_note (key text PRIMARY KEY, value text NOT NULL)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS almanac_state (key text PRIMARY KEY, value bytea NOT NULL)", logger: logger)
        }
    }

    /// The entry for `key`.
    public func entry(for key: String) async throws -> CacheEntry? {
        let rows = try await client.query(
            "SELECT tool, provider, fetched_at, payload FROM almanac_entry WHERE key = \(key)", logger: logger)
        for try await (tool, provider, fetchedAt, payload) in rows.decode((String, String, Double, Data).self) {
            return CacheEntry(
                key: key, tool: tool, provider: provider, fetchedAt: Date(timeIntervalSince1970: fetchedAt),
                payload: payload)
        }
        return nil
    }

    /// Stores an entry in one statement, unless a newer one is there already.
    public func store(_ entry: CacheEntry) async throws {
        let fetchedAt = entry.fetchedAt.timeIntervalSince1970
        try await client.query(
            """
            INSERT INTO almanac_entry (key, tool, provider, fetched_at, payload)
            VALUES (\(entry.key), \(entry.tool), \(entry.provider), \(fetchedAt), \(entry.payload))
            ON CONFLICT (key) DO UPDATE SET tool = EXCLUDED.tool, provider = EXCLUDED.provider,
            fetched_at = EXCLUDED.fetched_at, payload = EXCLUDED.payload
            WHERE almanac_entry.fetched_at <= EXCLUDED.fetched_at
            """, logger: logger)
    }

    /// Removes every entry, note and provider state in one transaction.
    public func removeAll() async throws -> Int {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            var count = 0
            let rows = try await connection.query("DELETE FROM almanac_entry RETURNING 1", logger: logger)
            for try await _ in rows { count += 1 }
            try await connection.query("DELETE FROM almanac_note", logger: logger)
            try await connection.query("DELETE FROM almanac_state", logger: logger)
            return count
        }
    }

    /// A note.
    public func note(for key: String) async throws -> String? {
        let rows = try await client.query("SELECT value FROM almanac_note WHERE key = \(key)", logger: logger)
        for try await value in rows.decode(String.self) { return value }
        return nil
    }

    /// Sets or clears a note.
    public func setNote(_ value: String?, for key: String) async throws {
        if let value {
            try await client.query(
                """
                INSERT INTO almanac_note (key, value) VALUES (\(key), \(value))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """, logger: logger)
        } else {
            try await client.query("DELETE FROM almanac_note WHERE key = \(key)", logger: logger)
        }
    }

    /// Provider state.
    public func value(for key: String) async -> Data? {
        guard let rows = try? await client.query("SELECT value FROM almanac_state WHERE key = \(key)", logger: logger)
        else { return nil }
        do {
            for try await value in rows.decode(Data.self) { return value }
        } catch {
            return nil
        }
        return nil
    }

    /// Sets or removes provider state.
    public func setValue(_ value: Data?, for key: String) async {
        if let value {
            _ = try? await client.query(
                """
                INSERT INTO almanac_state (key, value) VALUES (\(key), \(value))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """, logger: logger)
        } else {
            _ = try? await client.query("DELETE FROM almanac_state WHERE key = \(key)", logger: logger)
        }
    }

    /// Reserves a request slot for every host at once: a transaction-scoped advisory lock on the
    /// key orders the hosts, so two never read the same last slot. When the database cannot be
    /// reached it waits nothing beyond `now` (the call itself will say what failed).
    public func reserveSlot(_ key: String, interval: TimeInterval, now: Date) async -> Date {
        let logger = logger
        let reserved = try? await client.withTransaction(logger: logger) { connection -> Date in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(key)))", logger: logger)
            var last: Data?
            let rows = try await connection.query("SELECT value FROM almanac_state WHERE key = \(key)", logger: logger)
            for try await value in rows.decode(Data.self) { last = value }
            let slot = RequestSlot.next(after: RequestSlot.decode(last), interval: interval, now: now)
            let stored = RequestSlot.encode(slot)
            try await connection.query(
                """
                INSERT INTO almanac_state (key, value) VALUES (\(key), \(stored))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """, logger: logger)
            return slot
        }
        return reserved ?? now
    }

    /// Entries stored (for tests and `/healthz`).
    func count() async throws -> Int {
        let rows = try await client.query("SELECT count(*)::bigint FROM almanac_entry", logger: logger)
        for try await value in rows.decode(Int64.self) { return Int(value) }
        return 0
    }

    /// A short reason without connection details: PSQLError's description holds only its code, so
    /// the server's message is read from its fields.
    static func describe(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] { return message }
            return "\(psql.code)"
        }
        if error is DeadlineExceeded { return "no answer in time" }
        return "\(type(of: error))"
    }
}
