import AlmanacCore
import Foundation
import Testing

@testable import AlmanacRuntime

/// What a plugin's stored catalog depends on (docs/plugins.md).
@Suite("plugins: catalog fingerprints")
struct PluginCatalogTests {
    /// A fresh folder, removed when `body` ends.
    func inFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "almanac-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test("a remote plugin (url = ...) has no program file: nothing on PATH changes its fingerprint")
    func remoteHasNoProgram() throws {
        try inFolder { folder in
            var remote = PluginConfiguration(name: "notes", command: [])
            remote.url = URL(string: "http://127.0.0.1:9/mcp")
            #expect(remote.executable == nil)
            // A file on PATH named as the remote plugin is described must not be looked up.
            let decoy = folder.appendingPathComponent(remote.program)
            try Data("#!/bin/sh\n".utf8).write(to: decoy)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: decoy.path)
            let parent = ["PATH": folder.path]
            let before = PluginCatalog.fingerprint(remote, parentEnvironment: parent)
            try Data("#!/bin/sh\nexit 0\n".utf8).write(to: decoy)
            #expect(PluginCatalog.fingerprint(remote, parentEnvironment: parent) == before)
        }
    }

    @Test("a stdio plugin's fingerprint follows its program file on PATH")
    func stdioFollowsProgram() throws {
        try inFolder { folder in
            let program = folder.appendingPathComponent("almanac-test-plugin")
            try Data("#!/bin/sh\n".utf8).write(to: program)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
            let local = PluginConfiguration(name: "local", command: ["almanac-test-plugin"])
            #expect(local.executable == "almanac-test-plugin")
            let parent = ["PATH": folder.path]
            let before = PluginCatalog.fingerprint(local, parentEnvironment: parent)
            try Data("#!/bin/sh\nexit 0\n".utf8).write(to: program)
            #expect(PluginCatalog.fingerprint(local, parentEnvironment: parent) != before)
        }
    }
}
