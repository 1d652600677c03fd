import Glibc

/// Ranks the blocks the word index found by bm25 among themselves, as FTS5
/// ranks the rows of a table, without indexing them again: indexing every
/// candidate with positions cost more than the rest of a search (a word in
/// a thousand paragraphs of War and Peace). Each block's words are read
/// once from its bytes, folded like the index's tokenizer folds them (case,
/// the accents of Latin letters) and stemmed (Porter's algorithm, as the
/// index does), and counted. Which blocks match is the index's answer; this
/// only orders them, so a word folded a little differently from SQLite
/// changes an order, never a result.
struct PassageRanking: Sendable {
    struct Term: Equatable, Sendable {
        /// Folded and stemmed; for a prefix, what the stems begin with.
        let key: [UInt8]
        let isPrefix: Bool
        /// What every word with this stem begins with: the stem but for
        /// the letters a step may have replaced (y for i, an added e).
        let lead: [UInt8]

        init(key: [UInt8], isPrefix: Bool) {
            self.key = key
            self.isPrefix = isPrefix
            lead = Array(key.prefix(max(1, key.count - 2)))
        }
    }

    let terms: [Term]
    /// Which first bytes begin some term's stem: words beginning otherwise
    /// are counted without being folded.
    private let isLead: [Bool]
    /// The longest stretch, in words, whose terms are near each other.
    private let nearSpan: Int

    /// The terms of an FTS5 expression as `SearchExpression` writes it, or
    /// nil when matching needs more than the index knows: a phrase of two
    /// or more words, NEAR, a column or an initial-token filter.
    init?(expression: String) {
        var terms: [Term] = []
        var characters = Array(expression.utf8)[...]
        while let byte = characters.first {
            switch byte {
            case UInt8(ascii: "\""):
                characters.removeFirst()
                var quoted: [UInt8] = []
                while let next = characters.first {
                    characters.removeFirst()
                    if next == UInt8(ascii: "\"") {
                        // "" inside quotes is a quote character.
                        if characters.first == UInt8(ascii: "\"") { characters.removeFirst(); quoted.append(next); continue }
                        break
                    }
                    quoted.append(next)
                }
                let isPrefix = characters.first == UInt8(ascii: "*")
                if isPrefix { characters.removeFirst() }
                let words = Self.words(in: quoted)
                guard words.count <= 1 else { return nil }
                if let word = words.first { terms.append(Term(key: Self.stem(word), isPrefix: isPrefix)) }
            case UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"):
                characters.removeFirst()
            default:
                var bare: [UInt8] = []
                while let next = characters.first, next != UInt8(ascii: " "), next != UInt8(ascii: "("), next != UInt8(ascii: ")") {
                    bare.append(next)
                    characters.removeFirst()
                }
                if ["AND", "OR", "NOT"].contains(String(decoding: bare, as: UTF8.self)) { continue }
                let isPrefix = bare.last == UInt8(ascii: "*")
                if isPrefix { bare.removeLast() }
                let words = Self.words(in: bare)
                // A bare word the tokenizer would split, or FTS5 syntax
                // such as `body:` or `^`, is left to FTS5 itself.
                guard words.count == 1, words[0].count == bare.count, !bare.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "^") }),
                      bare != Array("NEAR".utf8)
                else { return nil }
                terms.append(Term(key: Self.stem(words[0]), isPrefix: isPrefix))
            }
        }
        guard !terms.isEmpty else { return nil }
        self.terms = terms
        var isLead = [Bool](repeating: false, count: 256)
        for term in terms { isLead[Int(term.lead.first ?? 0)] = true }
        self.isLead = isLead
        nearSpan = 3 * Set(terms.map(\.key)).count
    }

    /// What ranking needs of one block: its length in words and how often
    /// each term occurs in it (bm25), and for a query of several words
    /// whether it holds them one after another and how near each other.
    /// Counted where the block's bytes are at hand (on the core that
    /// inflated its chunk); ranked once all are.
    struct Counted: Sendable {
        let length: Int
        let counts: [Int]
        /// The terms in order, word after word, somewhere in the block.
        let holdsPhrase: Bool
        /// The fewest words a stretch holding every term spans; nil when
        /// one is missing.
        let span: Int?
    }

    func counted(_ block: UnsafeBufferPointer<UInt8>) -> Counted {
        var counts = [Int](repeating: 0, count: terms.count)
        var positions = [[Int]](repeating: [], count: terms.count > 1 ? terms.count : 0)
        let length = Self.countWords(in: block, checking: isLead) { word, index in
            for term in terms.indices where Self.matches(word, terms[term]) {
                counts[term] += 1
                if !positions.isEmpty { positions[term].append(index) }
            }
        }
        guard !positions.isEmpty else { return Counted(length: length, counts: counts, holdsPhrase: counts[0] > 0, span: counts[0] > 0 ? 1 : nil) }
        return Counted(length: length, counts: counts, holdsPhrase: Self.holdsPhrase(positions), span: Self.span(positions))
    }

    /// Whether some position of the first term is followed, word by word,
    /// by each of the others.
    static func holdsPhrase(_ positions: [[Int]]) -> Bool {
        let later = positions.dropFirst().map(Set.init)
        return positions.first?.contains { start in later.enumerated().allSatisfy { $1.contains(start + $0 + 1) } } ?? false
    }

    /// The shortest stretch, in words, holding a position of every term
    /// (a term asked for twice may be met once): a window slid over the
    /// positions in order.
    static func span(_ positions: [[Int]]) -> Int? {
        guard positions.allSatisfy({ !$0.isEmpty }) else { return nil }
        let events = positions.enumerated().flatMap { term, list in list.map { (position: $0, term: term) } }.sorted { $0.position < $1.position }
        var inWindow = [Int](repeating: 0, count: positions.count)
        var covered = 0, left = 0, best = Int.max
        for event in events {
            if inWindow[event.term] == 0 { covered += 1 }
            inWindow[event.term] += 1
            while covered == positions.count {
                best = min(best, event.position - events[left].position + 1)
                inWindow[events[left].term] -= 1
                if inWindow[events[left].term] == 0 { covered -= 1 }
                left += 1
            }
        }
        return best
    }

    /// What ranks a block before bm25 does: 0 for the words as asked, one
    /// after another; 1 for all of them near each other (within three
    /// words for each different one); 2 for the rest. A query of one word
    /// is all 0.
    func tier(of block: Counted) -> Int {
        guard terms.count > 1 else { return 0 }
        if block.holdsPhrase { return 0 }
        if let span = block.span, span <= nearSpan { return 1 }
        return 2
    }

    /// FTS5's bm25 for each block (lower is better), with its constants:
    /// k1 1.2, b 0.75, the documents' count and average length those given.
    func scores(of blocks: [Counted]) -> [Double] {
        let count = Double(blocks.count)
        let averageLength = max(1, Double(blocks.reduce(0) { $0 + $1.length }) / max(1, count))
        let idf = terms.indices.map { term -> Double in
            let holding = Double(blocks.lazy.filter { $0.counts[term] > 0 }.count)
            let value = log((count - holding + 0.5) / (holding + 0.5))
            return value > 0 ? value : 1e-6
        }
        let k1 = 1.2, b = 0.75
        return blocks.map { block in
            let lengthFactor: Double = k1 * (1 - b + b * Double(block.length) / averageLength)
            var score = 0.0
            for term in terms.indices {
                let frequency = Double(block.counts[term])
                let saturated: Double = frequency * (k1 + 1) / (frequency + lengthFactor)
                score += idf[term] * saturated
            }
            return -score
        }
    }

    static func matches(_ word: [UInt8], _ term: Term) -> Bool {
        // Most words do not begin like the stem: no stemming for them.
        guard word.count + 1 >= term.key.count, word.first == term.lead.first,
              word.withUnsafeBufferPointer({ memcmp($0.baseAddress!, term.lead, term.lead.count) == 0 })
        else { return false }
        let stem = Self.stem(word)
        return term.isPrefix ? stem.starts(with: term.key) : stem == term.key
    }

    /// The words of `bytes` as the index's tokenizer sees them: letters and
    /// digits (and + and #), lowercased, Latin letters without accents.
    static func words(in bytes: [UInt8]) -> [[UInt8]] {
        var words: [[UInt8]] = []
        bytes.withUnsafeBufferPointer { buffer in forEachWord(in: buffer) { words.append($0) } }
        return words
    }

    static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: ([UInt8]) -> Void) {
        forEachWord(in: bytes) { word, _ in body(word) }
    }

    /// How many words `bytes` holds, as `forEachWord` reads them; `body`
    /// is given, folded, only those whose first folded byte `isLead`
    /// marks (or that begin beyond ASCII): most words are counted
    /// without being copied or folded.
    static func countWords(in bytes: UnsafeBufferPointer<UInt8>, checking isLead: [Bool], _ body: ([UInt8], _ index: Int) -> Void) -> Int {
        var count = 0
        var start = -1
        // The word's first folded byte once it has one; 0xFF beyond ASCII.
        var first: UInt8 = 0
        var hasLetters = false
        func end(at position: Int) {
            defer { (start, hasLetters) = (-1, false) }
            guard start >= 0, hasLetters else { return }
            let index = count
            count += 1
            if first == 0xFF || isLead[Int(first)] {
                forEachWord(in: UnsafeBufferPointer(rebasing: bytes[start..<position])) { word, _ in body(word, index) }
            }
        }
        // A local copy: a static read in the loop is a check of its lazy
        // initialization at every byte.
        let folding = asciiFolded
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                let folded = folding[Int(byte)]
                if folded != 0 {
                    if start < 0 { start = index }
                    if !hasLetters { (hasLetters, first) = (true, folded) }
                } else if start >= 0 {
                    end(at: index)
                }
                index += 1
                continue
            }
            let (scalar, length) = decodeScalar(bytes, at: index)
            if let scalar, isWordScalar(scalar) {
                if start < 0 { start = index }
                if !hasLetters, scalar.properties.generalCategory != .nonspacingMark { (hasLetters, first) = (true, 0xFF) }
            } else if start >= 0 {
                end(at: index)
            }
            index += length
        }
        end(at: bytes.count)
        return count
    }

    /// Each ASCII byte as the tokenizer folds it into a word, 0 for those
    /// that are no part of one.
    private static let asciiFolded: [UInt8] = (0..<128).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "#"): return byte
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte | 0x20
        default: return 0
        }
    }

    /// Each word, folded, with where it lies in `bytes`.
    static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: ([UInt8], Range<Int>) -> Void) {
        var word: [UInt8] = []
        word.reserveCapacity(32)
        var start = 0
        var index = 0
        func end(at position: Int) {
            if !word.isEmpty { body(word, start..<position); word.removeAll(keepingCapacity: true) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "#"):
                    if word.isEmpty { start = index }
                    word.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    if word.isEmpty { start = index }
                    word.append(byte | 0x20)
                default:
                    end(at: index)
                }
                index += 1
                continue
            }
            let (scalar, length) = decodeScalar(bytes, at: index)
            guard let scalar, isWordScalar(scalar) else {
                end(at: index)
                index += length
                continue
            }
            if word.isEmpty { start = index }
            appendFolded(scalar, to: &word)
            index += length
        }
        end(at: bytes.count)
    }

    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= bytes.count else { return (nil, 1) }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return (nil, offset) }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        return (Unicode.Scalar(value), length)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        // General Punctuation (dashes, curly quotes, spaces) is most of
        // what a book holds beyond ASCII, and none of it is a word.
        if (0x2000...0x206F).contains(scalar.value) { return false }
        return switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark:
            true
        default:
            false
        }
    }

    private static func appendFolded(_ scalar: Unicode.Scalar, to word: inout [UInt8]) {
        if scalar.properties.generalCategory == .nonspacingMark { return }
        if let base = latinBase(scalar.value) {
            word.append(contentsOf: base.utf8)
            return
        }
        // Folded as a case-insensitive comparison folds (final sigma and
        // the kappa symbol as their letters), but ß stays ß.
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        let folded = upper.count == 1 ? upper.first! : scalar
        word.append(contentsOf: folded.properties.lowercaseMapping.utf8)
    }

    /// Latin-1 and Latin Extended-A letters as their letters without marks,
    /// lowercased: what `remove_diacritics` leaves of them.
    private static func latinBase(_ value: UInt32) -> String? {
        guard value >= 0xC0, value <= 0x17F else { return nil }
        let index = Int(value - 0xC0)
        let table = latinBases
        guard index < table.count else { return nil }
        let base = table[index]
        return base == "-" ? nil : base
    }

    // U+00C0…U+017F, "-" where the letter has no plainer form to fold to.
    private static let latinBases: [String] = (
        "a a a a a a - c e e e e i i i i - n o o o o o - - u u u u y - - "
            + "a a a a a a - c e e e e i i i i - n o o o o o - - u u u u y - y "
            + "a a a a a a c c c c c c c c d d - - e e e e e e e e e e g g g g "
            + "g g g g h h - - i i i i i i i i i - - - j j k k - l l l l l l - "
            + "- - - n n n n n n - - - o o o o o o - - r r r r r r s s s s s s "
            + "s s t t t t - - u u u u u u u u u u u u w w y y y z z z z z z -"
    ).split(separator: " ").map(String.init)

    /// Porter's stemmer (1980), the one FTS5's `porter` tokenizer applies:
    /// words of three to sixty-four plain letters, others as they are.
    static func stem(_ word: [UInt8]) -> [UInt8] {
        guard word.count >= 3, word.count <= 64, word.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return word }
        var stemmer = PorterStemmer(word)
        stemmer.run()
        return stemmer.word
    }
}

/// The steps of Porter's algorithm over a lowercase ASCII word.
private struct PorterStemmer {
    var word: [UInt8]

    init(_ word: [UInt8]) { self.word = word }

    mutating func run() {
        step1a(); step1b(); step1c(); step2(); step3(); step4(); step5()
    }

    private func isConsonant(_ index: Int) -> Bool {
        switch word[index] {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"): false
        case UInt8(ascii: "y"): index == 0 ? true : !isConsonant(index - 1)
        default: true
        }
    }

    /// The number of vowel-consonant sequences in the first `length` letters.
    private func measure(_ length: Int) -> Int {
        var count = 0, index = 0
        while index < length, isConsonant(index) { index += 1 }
        while index < length {
            while index < length, !isConsonant(index) { index += 1 }
            guard index < length else { break }
            count += 1
            while index < length, isConsonant(index) { index += 1 }
        }
        return count
    }

    private func hasVowel(_ length: Int) -> Bool {
        (0..<length).contains { !isConsonant($0) }
    }

    private func endsWithDoubleConsonant(_ length: Int) -> Bool {
        length >= 2 && word[length - 1] == word[length - 2] && isConsonant(length - 1)
    }

    /// Consonant, vowel, consonant at the end, the last not w, x or y.
    private func endsCVC(_ length: Int) -> Bool {
        guard length >= 3, isConsonant(length - 1), !isConsonant(length - 2), isConsonant(length - 3) else { return false }
        let last = word[length - 1]
        return last != UInt8(ascii: "w") && last != UInt8(ascii: "x") && last != UInt8(ascii: "y")
    }

    private func ends(_ suffix: String) -> Bool {
        let length = suffix.utf8.count
        return word.count > length && word[(word.count - length)...].elementsEqual(suffix.utf8)
    }

    private mutating func replace(_ suffix: String, with replacement: String) {
        word.removeLast(suffix.utf8.count)
        word.append(contentsOf: replacement.utf8)
    }

    /// Replaces the first of `rules` the word ends with, when what stays
    /// before it measures more than `minimum`.
    private mutating func replaceFirst(of rules: [(String, String)], measureAbove minimum: Int) {
        for (suffix, replacement) in rules where ends(suffix) {
            if measure(word.count - suffix.utf8.count) > minimum { replace(suffix, with: replacement) }
            return
        }
    }

    private mutating func step1a() {
        if ends("sses") { replace("sses", with: "ss") }
        else if ends("ies") { replace("ies", with: "i") }
        else if ends("ss") { return }
        else if ends("s") { word.removeLast() }
    }

    private mutating func step1b() {
        if ends("eed") {
            if measure(word.count - 3) > 0 { word.removeLast() }
            return
        }
        var removed = false
        for suffix in ["ed", "ing"] where ends(suffix) && hasVowel(word.count - suffix.utf8.count) {
            word.removeLast(suffix.utf8.count)
            removed = true
            break
        }
        guard removed else { return }
        if ends("at") || ends("bl") || ends("iz") {
            word.append(UInt8(ascii: "e"))
        } else if endsWithDoubleConsonant(word.count), !["l", "s", "z"].contains(Character(Unicode.Scalar(word[word.count - 1]))) {
            word.removeLast()
        } else if measure(word.count) == 1, endsCVC(word.count) {
            word.append(UInt8(ascii: "e"))
        }
    }

    private mutating func step1c() {
        if ends("y"), hasVowel(word.count - 1) { word[word.count - 1] = UInt8(ascii: "i") }
    }

    private mutating func step2() {
        replaceFirst(of: [
            ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"), ("bli", "ble"),
            ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"),
            ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"),
            ("iviti", "ive"), ("biliti", "ble"), ("logi", "log"),
        ], measureAbove: 0)
    }

    private mutating func step3() {
        replaceFirst(of: [
            ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""),
        ], measureAbove: 0)
    }

    private mutating func step4() {
        for suffix in ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
                       "ate", "iti", "ous", "ive", "ize"] where ends(suffix) {
            let stemLength = word.count - suffix.utf8.count
            if suffix == "ion", !(stemLength > 0 && (word[stemLength - 1] == UInt8(ascii: "s") || word[stemLength - 1] == UInt8(ascii: "t"))) {
                return
            }
            if measure(stemLength) > 1 { word.removeLast(suffix.utf8.count) }
            return
        }
    }

    private mutating func step5() {
        if ends("e") {
            let stemLength = word.count - 1
            let stemMeasure = measure(stemLength)
            if stemMeasure > 1 || (stemMeasure == 1 && !endsCVC(stemLength)) { word.removeLast() }
        }
        if measure(word.count) > 1, endsWithDoubleConsonant(word.count), word.last == UInt8(ascii: "l") { word.removeLast() }
    }
}

/// The words of a search inside a text, to mark where a passage holds
/// them (the reader's highlights): folded and stemmed as the search
/// index folds and stems, so what is marked is what the search found.
public struct TextSearchTerms: Equatable, Sendable {
    private let terms: [PassageRanking.Term]

    /// Nil when the query has no word to look for.
    public init?(query: String) {
        if let ranking = PassageRanking(expression: SearchExpression(query).expression) {
            terms = ranking.terms
        } else {
            // A phrase: each of its words is marked.
            let words = query.split(whereSeparator: \.isWhitespace).filter { !["AND", "OR", "NOT", "NEAR"].contains($0) }
            terms = words.flatMap { word in
                PassageRanking.words(in: Array(word.utf8)).map { PassageRanking.Term(key: PassageRanking.stem($0), isPrefix: word.hasSuffix("*")) }
            }
        }
        guard !terms.isEmpty else { return nil }
    }

    /// Where in `text` (as UTF-8 byte offsets) the words sought are.
    public func matches(in text: String) -> [Range<Int>] {
        var text = text
        var found: [Range<Int>] = []
        text.withUTF8 { bytes in
            PassageRanking.forEachWord(in: bytes) { word, range in
                if terms.contains(where: { PassageRanking.matches(word, $0) }) { found.append(range) }
            }
        }
        return found
    }
}
