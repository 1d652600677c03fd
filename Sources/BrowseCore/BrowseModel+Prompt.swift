import ComicsKit

extension BrowseModel {
    public static func openPrompt(_ state: inout BrowseState, _ kind: BrowsePromptKind, text: String) {
        state.prompt = text
        state.promptCursor = text.count
        state.promptKind = kind
        state.historyIndex = nil
    }

    /// The prompt is a line editor: the cursor moves (←/→, Home/End,
    /// Ctrl-A/E), Ctrl-U, Ctrl-K and Ctrl-W delete to the start, to the end
    /// and the word before the cursor, ↑/↓ go through what was entered.
    static func prompt(_ state: inout BrowseState, _ key: Key) -> [BrowseEffect] {
        var text = Array(state.prompt ?? "")
        var cursor = max(0, min(state.promptCursor, text.count))
        let history = state.promptHistory[state.promptKind] ?? []
        switch key {
        case .escape, .control("c"), .control("g"):
            state.prompt = nil
            return []
        case .left, .control("b"): cursor -= 1
        case .right, .control("f"): cursor += 1
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .backspace, .control("h"):
            if cursor > 0 {
                text.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .control("d"):
            if cursor < text.count { text.remove(at: cursor) }
        case .control("u"):
            text.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            text.removeLast(text.count - cursor)
        case .control("w"):
            var start = cursor
            while start > 0, text[start - 1] == " " { start -= 1 }
            while start > 0, text[start - 1] != " " { start -= 1 }
            text.removeSubrange(start..<cursor)
            cursor = start
        case .up, .down:
            guard !history.isEmpty else { return [] }
            let index = key == .up ? max(0, (state.historyIndex ?? history.count) - 1) : (state.historyIndex ?? history.count) + 1
            state.historyIndex = index < history.count ? index : nil
            text = Array(state.historyIndex.map { history[$0] } ?? "")
            cursor = text.count
        case let .character(character):
            guard state.promptKind != .jump || character.isNumber, text.count < 200 else { return [] }
            text.insert(character, at: cursor)
            cursor += 1
        case .enter:
            return enterPrompt(&state, String(text))
        default:
            return []
        }
        state.prompt = String(text)
        state.promptCursor = max(0, min(cursor, text.count))
        return []
    }

    private static func enterPrompt(_ state: inout BrowseState, _ entered: String) -> [BrowseEffect] {
        let terms = entered.trimmingWhitespace()
        if !terms.isEmpty {
            var history = state.promptHistory[state.promptKind] ?? []
            history.removeAll { $0 == terms }
            state.promptHistory[state.promptKind] = Array((history + [terms]).suffix(50))
        }
        state.prompt = nil
        do {
            switch state.promptKind {
            case .search:
                guard !terms.isEmpty else { return [] }
                // A second search replaces the first rather than stacking screens.
                if case let .list(shown) = state.visible, case .search = shown.listing { state.screens.removeLast() }
                state.screens.append(.list(BrowseList(listing: .search(terms), isLoading: true)))
                return []
            case .jump:
                return jump(&state, to: terms)
            case .readerGo:
                return readerGo(&state, to: terms)
            case let .readerSearch(forward):
                return readerSearch(&state, terms, forward: forward)
            case let .bookmarkName(number):
                guard case let .reader(reader) = state.visible, !terms.isEmpty else { return [] }
                return [.renameBookmark(reader.ref, number, terms)]
            case let .noteText(number):
                guard case let .reader(reader) = state.visible, !terms.isEmpty else { return [] }
                if let number { return [.editNote(reader.ref, number, terms)] }
                return [.addNote(reader.ref, TextPosition(block: reader.notedBlock(height: state.listHeight)), terms)]
            case .booksQuery:
                if !terms.isEmpty, terms.allSatisfy(\.isNumber) { return jump(&state, to: terms) }
                let listing: BrowseListing = terms.isEmpty ? .source(.books) : .books(try booksQuery(terms))
                state.screens = [.list(BrowseList(listing: listing))]
                state.booksListing = listing
                if state.freshness != .offline { state.freshness = .quiet }
                let kept = if case let .books(query) = listing { query } else { ListQuery() }
                return [.keepBooksQuery(kept)]
            }
        } catch let error as ComicsError {
            // The CLI's message for the same mistake; the text comes back to be mended.
            state.message = error.hint.map { "\(error.message); \($0)" } ?? error.message
            openPrompt(&state, state.promptKind, text: entered)
            return []
        } catch {
            state.message = "\(error)"
            return []
        }
    }

    public static func booksQuery(_ text: String) throws -> ListQuery {
        var words: [String] = [], languages: [String] = [], topic: String?, sort: String?
        for token in tokens(text) {
            let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
            switch (parts.first?.lowercased(), parts.count) {
            case ("language", 2), ("lang", 2): languages.append(parts[1])
            case ("topic", 2): topic = [topic, parts[1]].compactMap { $0 }.joined(separator: " ")
            case ("sort", 2): sort = parts[1]
            default: words.append(token)
            }
        }
        return try ListQuery.checked(
            search: words.isEmpty ? nil : words.joined(separator: " "),
            languages: languages.isEmpty ? nil : languages.joined(separator: ","), topic: topic, sort: sort)
    }

    /// Words split at spaces, but not inside double quotes (which go).
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        return current.isEmpty ? tokens : tokens + [current]
    }

    /// A query as the prompt writes it, so that it reads back the same.
    public static func promptText(of query: ListQuery) -> String {
        let quoted = { (text: String) in text.contains(" ") ? "\"\(text)\"" : text }
        var parts: [String] = []
        if let search = query.search { parts.append(search) }
        if !query.languages.isEmpty { parts.append("language:" + query.languages.joined(separator: ",")) }
        if let topic = query.topic { parts.append("topic:" + quoted(topic)) }
        if let sort = query.sort { parts.append("sort:" + sort.rawValue) }
        return parts.joined(separator: " ")
    }
}
