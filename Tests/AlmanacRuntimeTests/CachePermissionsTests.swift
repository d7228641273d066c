import AlmanacTesting
import Foundation
import Testing

/// The cache holds calendar, page and search text (issue 31, point 9): `tools run` keeps it to its
/// user, whatever the umask lets SQLite do.
@Suite("cache file permissions")
struct CachePermissionsTests {
    func mode(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return (attributes[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test(
        "tools run makes its cache folder 0700 and cache.sqlite (and -wal, -shm) 0600; an older 0644 file is narrowed")
    func privateCache() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-perm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("cache/almanac")
        let environment = ToolsBinary.environment(
            cacheDirectory: folder,
            extra: [
                "ALMANAC_REPLAY": Fixtures.directory.path, "ALMANAC_NOW": "2024-12-15T23:30:00Z",
                "ALMANAC_TZ": "America/New_York",
            ])
        let arguments = ["run", "sports", "nba", "--date", "2024-12-15"]
        let run = try await ToolsBinary.run(arguments, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let database = folder.appendingPathComponent("cache.sqlite").path
        #expect(mode(folder.path) == 0o700)
        #expect(mode(database) == 0o600)
        for suffix in ["-wal", "-shm"] where mode(database + suffix) != nil {
            #expect(mode(database + suffix) == 0o600, "\(suffix)")
        }

        // A cache an earlier version left readable to everyone is narrowed on the next run.
        for suffix in ["", "-wal", "-shm"] { chmod(database + suffix, 0o644) }
        #expect(try await ToolsBinary.run(arguments, environment: environment).status == 0)
        for suffix in ["", "-wal", "-shm"] where mode(database + suffix) != nil {
            #expect(mode(database + suffix) == 0o600, "cache.sqlite\(suffix)")
        }
    }
}
