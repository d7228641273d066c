// swift-tools-version: 6.0
// An Almanac tool plugin in Swift: a small MCP server over stdio, Foundation only (no
// dependencies, so it builds offline). Not part of Almanac's own package build.
import PackageDescription

let package = Package(
    name: "WordCountPlugin",
    targets: [.executableTarget(name: "WordCountPlugin")],
    swiftLanguageModes: [.v6]
)
