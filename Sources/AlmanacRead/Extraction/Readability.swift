import Foundation

/// Finds a page's main content the way Mozilla's Readability (Firefox's Reader View) does:
/// drop hidden and unlikely nodes, score paragraphs and give their ancestors the score, pick the
/// best ancestor, gather its siblings that look like the same article, then clean what was kept
/// (forms, share bars, link lists). When the result is short, try again with fewer rules, as
/// Readability does, and keep the longest attempt.
struct Readability {
    /// The words Readability reads in class and id names (lower-cased substrings).
    enum Words {
        static let unlikely: WordList = [
            "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap", "disqus",
            "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox",
            "sidebar", "skyscraper", "social", "sponsor", "supplemental", "ad-break", "agegate", "pagination", "pager",
            "popup", "yom-remote",
        ]
        static let maybe: WordList = ["and", "article", "body", "column", "content", "main", "mathjax", "shadow"]
        static let positive: WordList = [
            "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text",
            "blog", "story",
        ]
        static let negative: WordList = [
            "-ad-", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr", "masthead", "media", "meta",
            "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor",
            "shopping", "tags", "widget",
        ]
        static let byline: WordList = ["byline", "author", "dateline", "writtenby", "p-author"]
        static let hidden: WordList = ["hidden"]
        static let share: WordList = ["share"]
        static let hiddenStyle: WordList = ["display:none", "visibility:hidden"]
        static let unlikelyRoles: Set<String> = [
            "menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog",
        ]
    }

    static let tagsToScore: TagSet = ["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]
    static let divToPElements: TagSet = ["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]
    static let phrasing: TagSet = [
        "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em", "embed", "i",
        "img", "input", "kbd", "label", "mark", "math", "meter", "noscript", "object", "output", "progress", "q",
        "ruby",
        "samp", "script", "select", "small", "span", "strong", "sub", "sup", "textarea", "time", "var", "wbr",
    ]
    static let alterToDivExceptions: TagSet = ["div", "article", "section", "p"]
    static let removableWhenEmpty: TagSet = ["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6"]

    /// Class and id, lower-cased, as Readability matches them ("" for the many nodes with neither).
    static func matchString(_ node: HTMLNode) -> String {
        if let cached = node.matchCache { return cached }
        let className = node.className
        let id = node.id
        let match = className.isEmpty && id.isEmpty ? " " : (className + " " + id).lowercased()
        node.matchCache = match
        return match
    }
    static let headings: TagSet = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// Readability's DEFAULT_CHAR_THRESHOLD: an article shorter than this is tried again.
    static let charThreshold = 500

    struct Flags: OptionSet {
        let rawValue: Int
        static let stripUnlikelys = Flags(rawValue: 1)
        static let weightClasses = Flags(rawValue: 2)
        static let cleanConditionally = Flags(rawValue: 4)
        static let all: Flags = [.stripUnlikelys, .weightClasses, .cleanConditionally]
    }

    /// The article title (to drop a heading repeating it) and the byline found while walking.
    let title: String
    var byline: String?
    var flags = Flags.all

    init(title: String) {
        self.title = title
    }

    /// The main content of the page, or nil when no attempt found text. The first attempt works
    /// on `root` itself (it is changed); a retry asks `fresh` for an unchanged tree, as
    /// Readability re-parses the page (rare: only pages whose first attempt is short).
    mutating func extract(_ root: HTMLNode, fresh: () -> HTMLNode?) -> HTMLNode? {
        var attempts: [(node: HTMLNode, length: Int)] = []
        var next: HTMLNode? = root
        while let page = next {
            let body = page.elementChildren.first { $0.tag == "body" } ?? page.descendants(["body"]).first ?? page
            let article = grab(body)
            let length = Self.textLength(article)
            if length >= Self.charThreshold { return article }
            attempts.append((article, length))
            if flags.contains(.stripUnlikelys) {
                flags.remove(.stripUnlikelys)
            } else if flags.contains(.weightClasses) {
                flags.remove(.weightClasses)
            } else if flags.contains(.cleanConditionally) {
                flags.remove(.cleanConditionally)
            } else {
                break
            }
            next = fresh()
        }
        let best = attempts.max { $0.length < $1.length }
        return best.flatMap { $0.length > 0 ? $0.node : nil }
    }

    // MARK: Walk and score

    private mutating func grab(_ body: HTMLNode) -> HTMLNode {
        var elementsToScore: [HTMLNode] = []
        var shouldRemoveTitleHeader = true
        var node: HTMLNode? = body
        while let current = node {
            guard current.isElement else {
                node = Self.next(current)
                continue
            }
            let match = Self.matchString(current)
            if !Self.isProbablyVisible(current) {
                node = Self.removeAndNext(current)
                continue
            }
            if current.attribute("aria-modal") == "true", current.attribute("role") == "dialog" {
                node = Self.removeAndNext(current)
                continue
            }
            if byline == nil, Self.isByline(current, match) {
                byline = Self.normalize(current.textContent)
                node = Self.removeAndNext(current)
                continue
            }
            if shouldRemoveTitleHeader, current.tag == "h1" || current.tag == "h2",
                Self.similarity(title, Self.innerText(current)) > 0.75
            {
                shouldRemoveTitleHeader = false
                node = Self.removeAndNext(current)
                continue
            }
            if flags.contains(.stripUnlikelys), current !== body {
                if Self.containsAny(match, Words.unlikely), !Self.containsAny(match, Words.maybe),
                    !current.hasAncestor("table", depth: 0), !current.hasAncestor("code", depth: 0),
                    current.tag != "body",
                    current.tag != "a"
                {
                    node = Self.removeAndNext(current)
                    continue
                }
                if let role = current.attribute("role"), Words.unlikelyRoles.contains(role.lowercased()) {
                    node = Self.removeAndNext(current)
                    continue
                }
            }
            if Self.removableWhenEmpty.contains(current),
                Self.isWithoutContent(current)
            {
                node = Self.removeAndNext(current)
                continue
            }
            if Self.tagsToScore.contains(current) { elementsToScore.append(current) }
            var scoredNode = current
            if current.tag == "div" {
                Self.wrapPhrasing(current)
                if Self.hasSingleTag(current, "p"), Self.linkDensity(current) < 0.25,
                    let only = current.elementChildren.first
                {
                    current.replace(with: only)
                    scoredNode = only
                    elementsToScore.append(only)
                } else if !Self.hasChildBlock(current) {
                    current.tag = "p"
                    elementsToScore.append(current)
                }
            }
            node = Self.next(scoredNode)
        }

        var candidates: [HTMLNode] = []
        for element in elementsToScore {
            guard let parent = element.parent, parent.parent != nil || parent.tag == "body" else { continue }
            let measure = Self.measure(element)
            if measure.length < 25 { continue }
            var ancestors: [HTMLNode] = []
            var ancestor = element.parent
            while let current = ancestor, ancestors.count < 5 {
                ancestors.append(current)
                ancestor = current.parent
            }
            var score = 1.0
            score += Double(measure.commas + 1)
            score += Double(min(measure.length / 100, 3))
            for (level, ancestor) in ancestors.enumerated() {
                // <html> (no parent element) is never a candidate.
                guard ancestor.parent != nil else { continue }
                if !ancestor.scored {
                    initialize(ancestor)
                    candidates.append(ancestor)
                }
                let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level * 3)
                ancestor.score += score / divider
            }
        }

        var top: [HTMLNode] = []
        for candidate in candidates {
            candidate.score *= 1 - Self.linkDensity(candidate)
            if let index = top.firstIndex(where: { candidate.score > $0.score }) {
                top.insert(candidate, at: index)
                if top.count > 5 { top.removeLast() }
            } else if top.count < 5 {
                top.append(candidate)
            }
        }

        var topCandidate: HTMLNode
        if let first = top.first, first.tag != "body" {
            topCandidate = first
            let alternatives = top.dropFirst().filter {
                $0.score / max(topCandidate.score, .leastNonzeroMagnitude) >= 0.75
            }
            .map(Self.ancestors)
            if alternatives.count >= 3 {
                var parent = topCandidate.parent
                while let current = parent, current.tag != "body" {
                    let lists = alternatives.filter { list in list.contains { $0 === current } }.count
                    if lists >= 3 {
                        topCandidate = current
                        break
                    }
                    parent = current.parent
                }
            }
            if !topCandidate.scored { initialize(topCandidate) }
            var parent = topCandidate.parent
            var lastScore = topCandidate.score
            let threshold = lastScore / 3
            while let current = parent, current.tag != "body", current.parent != nil {
                if !current.scored {
                    parent = current.parent
                    continue
                }
                if current.score < threshold { break }
                if current.score > lastScore {
                    topCandidate = current
                    break
                }
                lastScore = current.score
                parent = current.parent
            }
            parent = topCandidate.parent
            while let current = parent, current.tag != "body", current.parent != nil, current.elementChildren.count == 1
            {
                topCandidate = current
                parent = current.parent
            }
            if !topCandidate.scored { initialize(topCandidate) }
        } else {
            // Nothing stood out: the whole body is the article.
            topCandidate = HTMLNode(kind: .element, tag: "div")
            for child in body.children { topCandidate.append(child) }
            body.append(topCandidate)
            initialize(topCandidate)
        }

        let article = HTMLNode(kind: .element, tag: "div")
        let threshold = max(10, topCandidate.score * 0.2)
        let siblings = topCandidate.parent?.elementChildren ?? [topCandidate]
        for sibling in siblings {
            var append = sibling === topCandidate
            if !append {
                var bonus = 0.0
                if !topCandidate.className.isEmpty, sibling.className == topCandidate.className {
                    bonus += topCandidate.score * 0.2
                }
                if sibling.scored, sibling.score + bonus >= threshold {
                    append = true
                } else if sibling.tag == "p" {
                    let density = Self.linkDensity(sibling)
                    let content = Self.innerText(sibling)
                    let length = content.utf16.count
                    if length > 80, density < 0.25 {
                        append = true
                    } else if length < 80, length > 0, density == 0, content.contains(". ") || content.hasSuffix(".") {
                        append = true
                    }
                }
            }
            if append {
                if !Self.alterToDivExceptions.contains(sibling) { sibling.tag = "div" }
                article.append(sibling)
            }
        }
        prepare(article)
        return article
    }

    private func initialize(_ node: HTMLNode) {
        node.scored = true
        var score = 0.0
        switch node.tag {
        case "div": score += 5
        case "pre", "td", "blockquote": score += 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score -= 3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": score -= 5
        default: break
        }
        node.score = score + Double(classWeight(node))
    }

    func classWeight(_ node: HTMLNode) -> Int {
        guard flags.contains(.weightClasses) else { return 0 }
        var weight = 0
        let names: (String, String)
        if let cached = node.lowerNamesCache {
            names = cached
        } else {
            names = (node.className.lowercased(), node.id.lowercased())
            node.lowerNamesCache = names
        }
        for lower in [names.0, names.1] where !lower.isEmpty {
            if Self.containsAny(lower, Words.negative) || Self.hasWord(lower, "hid")
                || Self.containsAny(lower, Words.hidden)
            {
                weight -= 25
            }
            if Self.containsAny(lower, Words.positive) { weight += 25 }
        }
        return weight
    }

    // MARK: Clean the article

    private func prepare(_ article: HTMLNode) {
        markDataTables(article)
        cleanConditionally(article, "form")
        cleanConditionally(article, "fieldset")
        Self.remove(article, ["object", "embed", "footer", "link", "aside", "nav"])
        // Share bars and the like, when short.
        for child in article.elementChildren {
            for node in [child] + child.allElements() {
                let match = Self.matchString(node)
                if Self.isShare(match), Self.rawLength(node) < Self.charThreshold { node.detach() }
            }
        }
        Self.remove(article, ["iframe", "input", "textarea", "select", "button"])
        for header in article.descendants(["h1", "h2"]) where classWeight(header) < 0 { header.detach() }
        cleanConditionally(article, "table")
        cleanConditionally(article, "ul")
        cleanConditionally(article, "div")
        for heading in article.descendants(["h1"]) { heading.tag = "h2" }
        for paragraph in article.descendants(["p"]).reversed() {
            let media =
                paragraph.count("img") + paragraph.count("embed") + paragraph.count("object")
                + paragraph.count("iframe")
            if media == 0, Self.textLength(paragraph) == 0 { paragraph.detach() }
        }
    }

    private func markDataTables(_ article: HTMLNode) {
        for table in article.descendants(["table"]) {
            if table.attribute("role") == "presentation" { continue }
            if table.attribute("datatable") == "0" { continue }
            if table.has("summary") {
                table.dataTable = true
                continue
            }
            if let caption = table.descendants(["caption"]).first, !caption.children.isEmpty {
                table.dataTable = true
                continue
            }
            if !table.descendants(["col", "colgroup", "tfoot", "thead", "th"]).isEmpty {
                table.dataTable = true
                continue
            }
            if !table.descendants(["table"]).isEmpty { continue }
            let rows = table.descendants(["tr"])
            let columns =
                rows.map { row in row.elementChildren.filter { $0.tag == "td" || $0.tag == "th" }.count }.max() ?? 0
            if rows.count >= 10 || columns > 4 || rows.count * columns > 10 { table.dataTable = true }
        }
    }

    private func cleanConditionally(_ article: HTMLNode, _ tag: String) {
        guard flags.contains(.cleanConditionally) else { return }
        for node in article.descendants([tag]).reversed() where node.parent != nil && isAttached(node, to: article) {
            if shouldRemove(node, tag) { node.detach() }
        }
    }

    private func isAttached(_ node: HTMLNode, to root: HTMLNode) -> Bool {
        var current: HTMLNode? = node
        while let each = current {
            if each === root { return true }
            current = each.parent
        }
        return false
    }

    private func shouldRemove(_ node: HTMLNode, _ tag: String) -> Bool {
        let measure = Self.measure(node)
        if tag == "table", node.dataTable { return false }
        if node.hasAncestor("table", depth: 0, where: { $0.dataTable }) { return false }
        if node.hasAncestor("code", depth: 0) { return false }
        let weight = classWeight(node)
        if weight < 0 { return true }
        guard measure.commas < 10 else { return false }
        // One walk for every count below (it was six, per node, for every node cleaned).
        var census = Census()
        census.add(node)
        var isList = tag == "ul" || tag == "ol"
        if !isList {
            isList = measure.length == 0 ? false : Double(census.listLength) / Double(measure.length) > 0.9
        }
        let paragraphs = Double(census.paragraphs)
        let images = Double(census.images)
        let items = Double(census.items) - 100
        let inputs = Double(census.inputs)
        let headingLength = census.headingLength
        let headingDensity = measure.length == 0 ? 0 : Double(headingLength) / Double(measure.length)
        let density = Self.linkDensity(node)
        let length = measure.length
        let inFigure = node.hasAncestor("figure", depth: 0)
        let remove =
            (images > 1 && paragraphs / images < 0.5 && !inFigure)
            || (!isList && items > paragraphs)
            || (inputs > (paragraphs / 3).rounded(.down))
            || (!isList && headingDensity < 0.9 && length < 25 && (images == 0 || images > 2) && !inFigure)
            || (!isList && weight < 25 && density > 0.2)
            || (weight >= 25 && density > 0.5)
        if isList, remove {
            // A simple list of images stays.
            if node.elementChildren.contains(where: { $0.elementChildren.count > 1 }) { return remove }
            if images == Double(census.items) { return false }
        }
        return remove
    }

    /// What ``shouldRemove(_:_:)`` counts among a node's descendants: paragraphs, images, list
    /// items, inputs, and the text length inside lists and headings (nested ones count again, as
    /// Readability's getElementsByTagName sums do).
    private struct Census {
        var paragraphs = 0
        var images = 0
        var items = 0
        var inputs = 0
        var listLength = 0
        var headingLength = 0

        private static let lists: TagSet = ["ul", "ol"]
        private static let p = TagCode.code("p")
        private static let img = TagCode.code("img")
        private static let li = TagCode.code("li")
        private static let input = TagCode.code("input")

        mutating func add(_ node: HTMLNode) {
            for child in node.children where child.kind == .element {
                let code = child.code
                if code == Self.p {
                    paragraphs += 1
                } else if code == Self.img {
                    images += 1
                } else if code == Self.li {
                    items += 1
                } else if code == Self.input {
                    inputs += 1
                } else if Self.lists.contains(code) {
                    listLength += Readability.textLength(child)
                } else if Readability.headings.contains(code) {
                    headingLength += Readability.textLength(child)
                }
                if !child.children.isEmpty { add(child) }
            }
        }
    }

    // MARK: Helpers

    static func containsAny(_ text: String, _ words: WordList) -> Bool {
        // Most elements have neither class nor id: their match string is " ", which holds no word.
        guard text.utf8.count > 1 else { return false }
        var text = text
        return text.withUTF8 { words.found(in: $0) }
    }

    /// Words to look for in class names, ids and styles, as bytes indexed by their first byte, so
    /// one pass over the text tries only the words that can start at each position (a byte search
    /// per word was the extractor's hottest call).
    struct WordList: ExpressibleByArrayLiteral, Sendable {
        private let words: [[UInt8]]
        /// For each byte value, the indices of the words starting with it.
        private let byFirst: [[Int]]

        init(arrayLiteral words: String...) {
            self.words = words.map { Array($0.utf8) }
            var byFirst = [[Int]](repeating: [], count: 256)
            for (index, word) in self.words.enumerated() {
                if let first = word.first { byFirst[Int(first)].append(index) }
            }
            self.byFirst = byFirst
        }

        func found(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = haystack.count
            for start in 0..<count {
                for index in byFirst[Int(haystack[start])] {
                    let word = words[index]
                    guard word.count <= count - start else { continue }
                    var matched = 1
                    while matched < word.count, haystack[start + matched] == word[matched] { matched += 1 }
                    if matched == word.count { return true }
                }
            }
            return false
        }
    }

    /// `word` as a whole space-separated word of `text`.
    static func hasWord(_ text: String, _ word: String) -> Bool {
        text.split(separator: " ").contains { $0 == word }
    }

    static func isShare(_ match: String) -> Bool {
        // Most class names have no "share" at all: a byte search settles those.
        guard containsAny(match, Words.share) else { return false }
        for word in ["share", "sharedaddy"] {
            var search = match.startIndex
            while let range = match.range(of: word, range: search..<match.endIndex) {
                let before = range.lowerBound == match.startIndex ? nil : match[match.index(before: range.lowerBound)]
                let after = range.upperBound == match.endIndex ? nil : match[range.upperBound]
                let boundary: (Character?) -> Bool = { $0 == nil || !($0!.isLetter || $0!.isNumber) || $0 == "_" }
                if boundary(before), boundary(after) { return true }
                search = range.upperBound
            }
        }
        return false
    }

    /// Readability's `_isProbablyVisible`: no `display:none`/`visibility:hidden` style, no
    /// `hidden` attribute, no `aria-hidden="true"` (except on fallback images).
    static func isProbablyVisible(_ node: HTMLNode) -> Bool {
        if let style = node.attribute("style") {
            let compact = String(String.UnicodeScalarView(style.lowercased().unicodeScalars.filter { !isSpace($0) }))
            if containsAny(compact, Words.hiddenStyle) { return false }
        }
        if node.has("hidden") { return false }
        if node.attribute("aria-hidden")?.lowercased() == "true", !node.className.contains("fallback-image") {
            return false
        }
        return true
    }

    private static func isByline(_ node: HTMLNode, _ match: String) -> Bool {
        let rel = node.attribute("rel")?.lowercased()
        let itemprop = node.attribute("itemprop")?.lowercased() ?? ""
        guard rel == "author" || itemprop.contains("author") || containsAny(match, Words.byline) else { return false }
        let length = textLength(node)
        return length > 0 && length < 100
    }

    private static func isWithoutContent(_ node: HTMLNode) -> Bool {
        guard textLength(node) == 0 else { return false }
        let elements = node.elementChildren
        return elements.isEmpty || elements.allSatisfy { $0.tag == "br" || $0.tag == "hr" }
    }

    private static func isPhrasing(_ node: HTMLNode) -> Bool {
        if node.kind == .text { return true }
        if phrasing.contains(node) { return true }
        if node.tag == "a" || node.tag == "del" || node.tag == "ins" { return node.children.allSatisfy(isPhrasing) }
        return false
    }

    private static func isWhitespace(_ node: HTMLNode) -> Bool {
        node.kind == .text ? node.text.unicodeScalars.allSatisfy(isSpace) : node.tag == "br"
    }

    /// Runs of phrasing content directly in a div become paragraphs.
    private static func wrapPhrasing(_ div: HTMLNode) {
        // Nothing to wrap (most divs): the children and every kept measure stay as they are.
        guard div.children.contains(where: { isPhrasing($0) && !isWhitespace($0) }) else { return }
        var result: [HTMLNode] = []
        var paragraph: HTMLNode?
        for child in div.children {
            if isPhrasing(child) {
                if let paragraph {
                    paragraph.children.append(child)
                    child.parent = paragraph
                } else if !isWhitespace(child) {
                    let made = HTMLNode(kind: .element, tag: "p")
                    made.parent = div
                    made.children.append(child)
                    child.parent = made
                    result.append(made)
                    paragraph = made
                } else {
                    result.append(child)
                }
            } else {
                if let made = paragraph {
                    while let last = made.children.last, isWhitespace(last) { made.children.removeLast() }
                }
                paragraph = nil
                result.append(child)
            }
        }
        div.children = result
        div.changed()
    }

    private static func hasSingleTag(_ node: HTMLNode, _ tag: String) -> Bool {
        let elements = node.elementChildren
        guard elements.count == 1, elements[0].tag == tag else { return false }
        return !node.children.contains { $0.kind == .text && !$0.text.unicodeScalars.allSatisfy(isSpace) }
    }

    private static func hasChildBlock(_ node: HTMLNode) -> Bool {
        node.children.contains { $0.isElement && (divToPElements.contains($0) || hasChildBlock($0)) }
    }

    static func ancestors(_ node: HTMLNode) -> [HTMLNode] {
        var list: [HTMLNode] = []
        var current = node.parent
        while let each = current {
            list.append(each)
            current = each.parent
        }
        return list
    }

    /// The node's text, trimmed, with runs of whitespace as one space.
    static func innerText(_ node: HTMLNode) -> String {
        normalize(node.textContent)
    }

    static func normalize(_ text: String) -> String {
        // Runs between spaces are appended whole, not a scalar at a time.
        var result = ""
        var pendingSpace = false
        let scalars = text.unicodeScalars
        var run: String.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if isSpace(scalars[index]) {
                if let start = run {
                    result.append(contentsOf: Substring(scalars[start..<index]))
                    run = nil
                }
                pendingSpace = !result.isEmpty
            } else if run == nil {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                run = index
            }
            scalars.formIndex(after: &index)
        }
        if let start = run { result.append(contentsOf: Substring(scalars[start..<scalars.endIndex])) }
        return result
    }

    /// JavaScript's `\s` (what Readability's regular expressions collapse and trim), without
    /// Unicode property lookups for ASCII.
    @inline(__always)
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { isSpace(scalar.value) }

    /// ``isSpace(_:)`` of a scalar value.
    @inline(__always)
    static func isSpace(_ value: UInt32) -> Bool {
        if value < 0x80 { return value == 0x20 || (0x09...0x0D).contains(value) }
        switch value {
        case 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// The length of a node's normalized text (in UTF-16 units, as Readability counts in
    /// JavaScript) and its commas, without building the text. Composable: a parent's measure is
    /// its children's joined (a space between two non-empty parts when either side has one), so
    /// each node's is computed once and kept until the subtree changes.
    struct Measure: Equatable {
        var length = 0
        var commas = 0
        /// Whitespace before the first visible character (or anywhere, when `length` is 0).
        var leading = false
        /// Whitespace after the last visible character.
        var trailing = false

        static func text(_ text: String) -> Measure {
            var measure = Measure()
            var pendingSpace = false
            var text = text
            // Decoded from the UTF-8 bytes directly (a String's bytes are valid UTF-8): the
            // scalar iterator was the measure's main cost.
            text.withUTF8 { bytes in
                let count = bytes.count
                var index = 0
                while index < count {
                    let lead = bytes[index]
                    var value: UInt32
                    if lead < 0x80 {
                        value = UInt32(lead)
                        index += 1
                    } else if lead < 0xE0 {
                        value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        index += 2
                    } else if lead < 0xF0 {
                        value =
                            UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                            | UInt32(bytes[index + 2] & 0x3F)
                        index += 3
                    } else {
                        value = UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        value |= UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                        index += 4
                    }
                    if Readability.isSpace(value) {
                        if measure.length == 0 { measure.leading = true } else { pendingSpace = true }
                        continue
                    }
                    if pendingSpace {
                        measure.length += 1
                        pendingSpace = false
                    }
                    measure.length += value > 0xFFFF ? 2 : 1
                    switch value {
                    case 0x2C, 0x60C, 0xFE50, 0xFE10, 0xFE11, 0x2E41, 0x2E34, 0x2E32, 0xFF0C: measure.commas += 1
                    default: break
                    }
                }
            }
            measure.trailing = pendingSpace
            return measure
        }

        func joined(_ next: Measure) -> Measure {
            if length == 0 {
                var result = next
                result.leading = leading || next.leading
                if next.length == 0 { result.trailing = false }
                return result
            }
            if next.length == 0 {
                var result = self
                result.trailing = trailing || next.leading
                return result
            }
            return Measure(
                length: length + next.length + (trailing || next.leading ? 1 : 0), commas: commas + next.commas,
                leading: leading, trailing: next.trailing)
        }
    }

    static func measure(_ node: HTMLNode) -> Measure {
        if let cached = node.measure { return cached }
        let result: Measure
        if node.kind == .text {
            result = Measure.text(node.text)
        } else {
            result = node.children.reduce(Measure()) { $0.joined(measure($1)) }
        }
        node.measure = result
        return result
    }

    static func textLength(_ node: HTMLNode) -> Int { measure(node).length }

    /// The raw `textContent` length (UTF-8 bytes as an upper bound is enough for a threshold).
    static func rawLength(_ node: HTMLNode) -> Int {
        if node.kind == .text { return node.text.utf16.count }
        return node.children.reduce(0) { $0 + rawLength($1) }
    }

    static func linkDensity(_ node: HTMLNode) -> Double {
        let length = textLength(node)
        guard length > 0 else { return 0 }
        return linkLength(node) / Double(length)
    }

    /// The text length inside links (`#` links count 0.3), kept with the node's measure.
    static func linkLength(_ node: HTMLNode) -> Double {
        if let cached = node.linkLength { return cached }
        var total = 0.0
        for child in node.children where child.isElement {
            if child.tag == "a" {
                let weight = (child.attribute("href") ?? "").hasPrefix("#") ? 0.3 : 1
                total += Double(textLength(child)) * weight
            }
            // Links inside links are counted too, as Readability's getElementsByTagName("a") does.
            total += linkLength(child)
        }
        node.linkLength = total
        return total
    }

    /// Readability's `_textSimilarity`: the share of B's words that A also has.
    static func similarity(_ a: String, _ b: String) -> Double {
        let wordsA = Set(tokens(a))
        let wordsB = tokens(b)
        guard !wordsA.isEmpty, !wordsB.isEmpty else { return 0 }
        let unique = wordsB.filter { !wordsA.contains($0) }
        let distance = Double(unique.joined(separator: " ").count) / Double(wordsB.joined(separator: " ").count)
        return 1 - distance
    }

    static func tokens(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    private static func remove(_ root: HTMLNode, _ tags: TagSet) {
        for node in root.descendants(tags).reversed() { node.detach() }
    }

    /// The next node in document order, descending into children.
    static func next(_ node: HTMLNode) -> HTMLNode? {
        if let first = node.children.first { return first }
        return nextSkippingChildren(node)
    }

    static func nextSkippingChildren(_ node: HTMLNode) -> HTMLNode? {
        var current: HTMLNode? = node
        while let each = current {
            if let parent = each.parent, let index = each.indexInParent(), index + 1 < parent.children.count {
                let next = parent.children[index + 1]
                next.indexHint = index + 1
                return next
            }
            current = each.parent
        }
        return nil
    }

    private static func removeAndNext(_ node: HTMLNode) -> HTMLNode? {
        let next = nextSkippingChildren(node)
        node.detach()
        return next
    }
}
