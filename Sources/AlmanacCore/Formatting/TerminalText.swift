/// Text echoed back in an error, made safe for a terminal and kept on one line.
///
/// Arguments come from people and from untrusted callers alike: an ESC or BEL in one, echoed raw,
/// would drive the reader's terminal (move the cursor, retitle the window, ring the bell), and a
/// line break would forge a second message line.
public enum TerminalText {
    /// `text` with every control character (C0, DEL, C1) and bidi override written as a visible
    /// `\u{XX}` escape (`\n`, `\r`, `\t` as themselves escaped).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let visible: String
            switch scalar {
            case "\n": visible = "\\n"
            case "\r": visible = "\\r"
            case "\t": visible = "\\t"
            default: visible = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: visible.unicodeScalars)
        }
        return String(out)
    }

    /// `text` for a terminal as it streams (a model's answer): every control character (C0, DEL,
    /// C1) except newline and tab, and every bidi override, removed. An escape sequence such as
    /// `ESC]0;title BEL` or `ESC[2J` is left as harmless visible text without its ESC; a CR
    /// cannot overwrite the line. Pieces may be cut anywhere: each character is judged alone.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\n" && $0 != "\t" }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !needsEscape(scalar) || scalar == "\n" || scalar == "\t" {
            out.append(scalar)
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}
