import Foundation

/// The paths and value types of a JSON document; array elements are merged under `[]`.
struct JSONShape: Sendable, Equatable {
    /// Each path (`a.b[].c`; the root is `""`) and the types seen there: `object`, `array`,
    /// `string`, `number`, `boolean`, `null`.
    var types: [String: Set<String>]

    /// The shape of `data`, or nil when it is not JSON.
    init?(_ data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        var types: [String: Set<String>] = [:]
        func walk(_ value: Any, _ path: String) {
            switch value {
            case let dictionary as [String: Any]:
                types[path, default: []].insert("object")
                for (key, member) in dictionary { walk(member, path.isEmpty ? key : "\(path).\(key)") }
            case let array as [Any]:
                types[path, default: []].insert("array")
                for element in array { walk(element, path + "[]") }
            case is NSNull:
                types[path, default: []].insert("null")
            case let number as NSNumber:
                // JSONSerialization gives booleans as NSNumber too; the encoding ("c") tells them apart.
                let isBool = String(cString: number.objCType) == "c"
                types[path, default: []].insert(isBool ? "boolean" : "number")
            case is String:
                types[path, default: []].insert("string")
            default:
                types[path, default: []].insert("unknown")
            }
        }
        walk(object, "")
        self.types = types
    }

    /// "gone: a.b", "type changed: a.c (string → number)"; a gone parent hides its children.
    func drift(to live: JSONShape) -> [String] {
        var changes: [String] = []
        var gone: [String] = []
        for path in types.keys.sorted() where !path.isEmpty {
            guard let liveTypes = live.types[path] else {
                if !gone.contains(where: { path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[]") }) {
                    gone.append(path)
                    changes.append("gone: \(path)")
                }
                continue
            }
            let before = types[path, default: []].subtracting(["null"])
            let after = liveTypes.subtracting(["null"])
            if !before.isEmpty, !after.isEmpty, before.isDisjoint(with: after) {
                changes.append(
                    "type changed: \(path) (\(before.sorted().joined(separator: "/")) → \(after.sorted().joined(separator: "/")))"
                )
            }
        }
        return changes
    }
}
