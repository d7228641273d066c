public import AlmanacCore
public import Foundation

/// Finds files in the package's top-level `Fixtures/` folder from any test file.
///
/// SwiftPM resources cannot point outside a target's folder, so this walks up from `#filePath`
/// until it finds `Package.swift` (the trick argument-parser's `assertSnapshot` uses).
public enum Fixtures {
    /// The package root.
    public static func packageRoot(file: StaticString = #filePath) -> URL {
        var url = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// The `Fixtures/` directory.
    public static var directory: URL { packageRoot().appendingPathComponent("Fixtures") }

    /// A file under `Fixtures/`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of a fixture.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// A replay transport over all of `Fixtures/`.
    public static func replay() throws -> ReplayTransport {
        try ReplayTransport(directory: directory)
    }
}
