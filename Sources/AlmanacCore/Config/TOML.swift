import Foundation

/// A small TOML reader for `config.toml`: tables (`[a]`, `[a.b]`), dotted keys, basic and literal
/// strings, integers, floats, booleans, arrays and inline tables, and comments.
///
/// Hand-written because the mirrored TOML package (TOMLKit) depends on a package the mirror
/// lacks; multi-line strings and dates are rejected with a clear error rather than misread.
public enum TOML {
    /// A parse error with its 1-based line.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        var line: Int
        /// What was wrong.
        var message: String
        /// "line N: message".
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses a document into its top-level table.
    public static func parse(_ text: String) throws -> [String: ConfigValue] {
        var root: [String: ConfigValue] = [:]
        var currentPath: [String] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            var scanner = Scanner(Array(rawLine.unicodeScalars), line: lineNumber)
            scanner.skipSpaces()
            if scanner.atEndOrComment { continue }
            if scanner.peek == "[" {
                scanner.advance()
                if scanner.peek == "[" {
                    throw ParseError(line: lineNumber, message: "arrays of tables ([[...]]) are not supported")
                }
                let path = try scanner.keyPath()
                scanner.skipSpaces()
                try scanner.expect("]")
                scanner.skipSpaces()
                guard scanner.atEndOrComment else {
                    throw ParseError(line: lineNumber, message: "text after table header")
                }
                currentPath = path
                try insert(.table([:]), at: path, into: &root, line: lineNumber, mergeTables: true)
                continue
            }
            let key = try scanner.keyPath()
            scanner.skipSpaces()
            try scanner.expect("=")
            scanner.skipSpaces()
            let value = try scanner.value()
            scanner.skipSpaces()
            guard scanner.atEndOrComment else {
                throw ParseError(line: lineNumber, message: "unexpected text after value")
            }
            try insert(value, at: currentPath + key, into: &root, line: lineNumber, mergeTables: false)
        }
        return root
    }

    private static func insert(
        _ value: ConfigValue, at path: [String], into table: inout [String: ConfigValue], line: Int, mergeTables: Bool
    ) throws {
        guard let first = path.first else { return }
        if path.count == 1 {
            if let existing = table[first] {
                if mergeTables, case .table = existing { return }
                throw ParseError(line: line, message: "duplicate key '\(first)'")
            }
            table[first] = value
            return
        }
        var child: [String: ConfigValue]
        switch table[first] {
        case nil: child = [:]
        case .table(let existing): child = existing
        default: throw ParseError(line: line, message: "'\(first)' is not a table")
        }
        try insert(value, at: Array(path.dropFirst()), into: &child, line: line, mergeTables: mergeTables)
        table[first] = .table(child)
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        let line: Int
        var index = 0

        init(_ scalars: [Unicode.Scalar], line: Int) {
            self.scalars = scalars
            self.line = line
        }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
        var atEndOrComment: Bool { peek == nil || peek == "#" || peek == "\r" }
        mutating func advance() { index += 1 }
        mutating func skipSpaces() { while peek == " " || peek == "\t" { index += 1 } }

        func error(_ message: String) -> ParseError { ParseError(line: line, message: message) }

        mutating func expect(_ scalar: Unicode.Scalar) throws {
            guard peek == scalar else { throw error("expected '\(scalar)'") }
            index += 1
        }

        mutating func keyPath() throws -> [String] {
            var parts: [String] = []
            repeat {
                skipSpaces()
                if peek == "\"" || peek == "'" {
                    parts.append(try string())
                } else {
                    var key = ""
                    while let scalar = peek,
                        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                            || scalar == "_" || scalar == "-"
                    {
                        key.unicodeScalars.append(scalar)
                        index += 1
                    }
                    guard !key.isEmpty else { throw error("expected a key") }
                    parts.append(key)
                }
                skipSpaces()
                guard peek == "." else { break }
                index += 1
            } while true
            return parts
        }

        mutating func string() throws -> String {
            guard let quote = peek else { throw error("expected a string") }
            index += 1
            if peek == quote, index + 1 < scalars.count, scalars[index + 1] == quote {
                throw error("multi-line strings are not supported")
            }
            var text = String.UnicodeScalarView()
            while let scalar = peek {
                index += 1
                if scalar == quote { return String(text) }
                if scalar == "\\" && quote == "\"" {
                    guard let escaped = peek else { break }
                    index += 1
                    switch escaped {
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    case "r": text.append("\r")
                    case "\"": text.append("\"")
                    case "\\": text.append("\\")
                    case "u", "U":
                        let length = escaped == "u" ? 4 : 8
                        guard index + length <= scalars.count,
                            let code = UInt32(
                                String(String.UnicodeScalarView(scalars[index..<index + length])), radix: 16),
                            let decoded = Unicode.Scalar(code)
                        else { throw error("bad unicode escape") }
                        text.append(decoded)
                        index += length
                    default: throw error("unknown escape '\\\(escaped)'")
                    }
                } else {
                    text.append(scalar)
                }
            }
            throw error("unterminated string")
        }

        mutating func value() throws -> ConfigValue {
            guard let scalar = peek else { throw error("missing value") }
            switch scalar {
            case "\"", "'":
                return .string(try string())
            case "[":
                index += 1
                var items: [ConfigValue] = []
                while true {
                    skipBlank()
                    if peek == "]" {
                        index += 1
                        return .array(items)
                    }
                    items.append(try value())
                    skipBlank()
                    if peek == "," { index += 1 } else if peek != "]" { throw error("expected ',' or ']' in array") }
                }
            case "{":
                index += 1
                var table: [String: ConfigValue] = [:]
                skipSpaces()
                if peek == "}" {
                    index += 1
                    return .table(table)
                }
                while true {
                    let key = try keyPath()
                    skipSpaces()
                    try expect("=")
                    skipSpaces()
                    try TOML.insert(try value(), at: key, into: &table, line: line, mergeTables: false)
                    skipSpaces()
                    if peek == "," {
                        index += 1
                        continue
                    }
                    try expect("}")
                    return .table(table)
                }
            default:
                var word = ""
                while let scalar = peek, !" \t,]}#\r".unicodeScalars.contains(scalar) {
                    word.unicodeScalars.append(scalar)
                    index += 1
                }
                if word == "true" { return .bool(true) }
                if word == "false" { return .bool(false) }
                let digits = word.replacingOccurrences(of: "_", with: "")
                if let integer = Int(digits) { return .integer(integer) }
                if let number = Double(digits), number.isFinite { return .number(number) }
                throw error("unsupported value '\(word)' (quote text values)")
            }
        }

        mutating func skipBlank() { skipSpaces() }
    }
}
