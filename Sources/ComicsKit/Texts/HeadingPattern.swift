/// What a heading line says: `CHAPTER I.`, `Chapter 1`, `CHAPTER 1.
/// Loomings.`, `BOOK ONE: 1805`, `FIRST ACT`, `SECOND EPILOGUE`,
/// `CHAPITRE II`, `Ensimmäinen runo`, or a roman numeral alone.
struct HeadingLine: Equatable, Sendable {
    enum Kind: Int, Comparable, Sendable {
        /// Prologues and epilogues stand beside the outermost divisions.
        case outermost = -1
        case volume = 0, part, book, act, chapter, scene
        /// A numeral alone on its line (sonnets, short chapters).
        case numeral

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// Volumes, parts and books nest in the order a book first names
        /// them (a treatise's BOOK I holds its PART I; a novel's PART FIRST
        /// its BOOK I): the kinds to read each of them as, the first named
        /// outermost. Other kinds stay as they are.
        static func divisionsInOrder(of kinds: some Sequence<Kind>) -> [Kind: Kind] {
            var named: [Kind] = []
            for kind in kinds where kind <= .book && kind >= .volume && !named.contains(kind) {
                named.append(kind)
                if named.count == 3 { break }
            }
            return Dictionary(uniqueKeysWithValues: zip(named, named.sorted()))
        }
    }

    var kind: Kind
    /// 0 for an unnumbered prologue or epilogue.
    var number: Int
    /// What follows the number (`Loomings.`, `1805`), if anything.
    var title: String?
}

enum HeadingPattern {
    static let longest = 100

    static func match(_ line: some StringProtocol) -> HeadingLine? {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= longest || trimmed.count <= longest, let firstScalar = trimmed.unicodeScalars.first,
              firstScalar.properties.isUppercase || ("0"..."9").contains(firstScalar)
        else { return nil }
        // `VOLUME I.--FANTINE.`, `CHAPTER I--M. MYRIEL`: a dash sets the title off.
        let hasDashes = (trimmed.utf8.contains(0x2D) && trimmed.includes("--")) || (trimmed.utf8.contains(0xE2) && trimmed.contains("—"))
        let text = hasDashes ? spacedDashes(trimmed) : trimmed
        guard mayBeginHeading(text) else { return nil }
        if let twoWordOrdinal = twoWordOrdinalHeading(text) { return twoWordOrdinal }
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if let numeral = romanValue(trimmedPunctuation(text)), numeral > 0, text.count <= 12,
           !text.contains(" "), text.uppercased() == text {
            return HeadingLine(kind: .numeral, number: numeral, title: nil)
        }
        // `VII. THE ADVENTURE OF THE BLUE CARBUNCLE`: a numeral and a title
        // in capitals; D or M alone is an initial (`M. DE TERMES.`,
        // Monsieur), where L and C number songs 50 and 100.
        if words.count >= 2, words[0].hasSuffix("."), words[0].count > 2 || words[0].first.map({ !"DM".contains($0) }) == true,
           let numeral = romanValue(trimmedPunctuation(String(words[0]))) ?? figureAlone(words[0]) {
            let title = text.dropFirst(words[0].count).trimmingWhitespace()
            let letters = title.filter(\.isLetter)
            if letters.count >= 3, letters == letters.uppercased(), keyword(words[1]) == nil {
                return HeadingLine(kind: .numeral, number: numeral, title: title)
            }
        }
        if let kind = keyword(words[0]), isHeadingCase(words[0]) {
            if words.count == 1 {
                return kind == .outermost ? HeadingLine(kind: kind, number: 0, title: nil) : nil
            }
            if let (number, title) = numberAndTitle(words.dropFirst()) {
                return HeadingLine(kind: kind, number: number, title: title)
            }
            if kind == .outermost, let title = separatedTitle(text.dropFirst(words[0].count)) {
                return HeadingLine(kind: kind, number: 0, title: title)
            }
            return nil
        }
        if words.count >= 2, let number = ordinal(words[0]) ?? plainNumber(words[0]),
           let kind = keyword(trimmedPunctuation(String(words[1]))), isHeadingCase(words[1]) {
            let rest = text.dropFirst(words[0].count).drop { $0 == " " }.dropFirst(words[1].count)
            let keywordEnd = words[1].last.map { ".:".contains($0) } ?? false
            if rest.allSatisfy({ $0 == " " }) { return HeadingLine(kind: kind, number: number, title: nil) }
            if let title = keywordEnd ? rest.trimmingWhitespace() : separatedTitle(rest) {
                return HeadingLine(kind: kind, number: number, title: title)
            }
            // `Segunda parte del ingenioso hidalgo…`: a title that runs on
            // from the keyword, short and no sentence (`First act of
            // kindness he showed her.` is one).
            let title = rest.trimmingWhitespace()
            if title.split(separator: " ").count <= 12, !title.includes(", "), !title.includes(". "),
               !(title.last.map { ",.;!?”\"".contains($0) } ?? false) {
                return HeadingLine(kind: kind, number: number, title: title)
            }
        }
        return nil
    }

    /// Whether the first word could begin one of the patterns: each
    /// begins with a numeral, a heading word or an ordinal (`VII.`, `12`,
    /// `CHAPTER`, `Dritter`, `Vigésimo primero`). Most lines of a book are
    /// told apart by this alone.
    private static func mayBeginHeading(_ text: String) -> Bool {
        let first = trimmedPunctuation(String(text.prefix { $0 != " " }))
        guard !first.isEmpty else { return false }
        if first.utf8.allSatisfy({ romanOrDigit.contains($0) }) { return true }
        let upper = first.uppercased()
        return keywords[upper] != nil || SpelledNumbers.mayBeginOrdinal(upper)
    }

    private static let romanOrDigit = Set("IVXLCDMivxlcdm0123456789".utf8)

    private static func spacedDashes(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let first = rest.first {
            if rest.hasPrefix("--") {
                result += " -- "
                rest = rest.drop { $0 == "-" }
            } else if first == "—" {
                result += " — "
                rest = rest.dropFirst()
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// `Kahdeskymmenes ensimmäinen runo`, `Vigésimo primero capítulo`, `Vingt
    /// et unième dialogue`: an ordinal of two words (or three) before its
    /// keyword.
    private static func twoWordOrdinalHeading(_ text: String) -> HeadingLine? {
        let words = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        let number: Int, keywordAt: Int
        // French before 1990 spaces its `et` (`VINGT ET UNIÈME DIALOGUE.`).
        if words.count >= 4, words[1].lowercased() == "et", let spaced = SpelledNumbers.ordinal("\(words[0])-et-\(words[2])") {
            (number, keywordAt) = (spaced, 3)
        } else if words.count >= 3, let twoWords = SpelledNumbers.ordinal(words[0], trimmedPunctuation(String(words[1]))) {
            (number, keywordAt) = (twoWords, 2)
        } else {
            return nil
        }
        guard let kind = keyword(trimmedPunctuation(String(words[keywordAt]))), isHeadingCase(words[keywordAt]) else { return nil }
        let rest = words.count > keywordAt + 1 ? text[words[keywordAt + 1].startIndex...] : ""
        if rest.allSatisfy({ $0 == " " }) { return HeadingLine(kind: kind, number: number, title: nil) }
        return separatedTitle(rest).map { HeadingLine(kind: kind, number: number, title: $0) }
    }

    /// `CHAPTER` or `Chapter`, not `chapter` in the middle of a sentence.
    private static func isHeadingCase(_ word: Substring) -> Bool {
        let letters = word.filter(\.isLetter)
        return letters == letters.uppercased() || letters.dropFirst() == letters.dropFirst().lowercased()
    }

    /// The number after a keyword and the title after it, which must be
    /// set off (`CHAPTER 1. Loomings.`, `BOOK ONE: 1805`, `CHAPTER I — …`).
    private static func numberAndTitle(_ words: ArraySlice<Substring>) -> (Int, String?)? {
        guard let token = words.first else { return nil }
        var bare = trimmedPunctuation(withoutNoteMarker(trimmedPunctuation(String(token))))
        var rest = words.dropFirst().joined(separator: " ")
        var setOff = token.last.map { ".:,".contains($0) } ?? false
        var number = romanValue(bare, lowercaseToo: true) ?? plainNumber(Substring(bare)) ?? cardinal(bare) ?? SpelledNumbers.ordinal(bare)
        // `Capítulo vigésimo primero.`: an ordinal of two words.
        let restWords = rest.split(separator: " ", maxSplits: 1)
        if let next = restWords.first, !setOff,
           let twoWords = SpelledNumbers.ordinal(bare, trimmedPunctuation(String(next))) {
            number = twoWords
            bare += " " + next
            setOff = next.last.map { ".:,".contains($0) } ?? false
            rest = restWords.count > 1 ? String(restWords[1]) : ""
        }
        guard let number else { return nil }
        if rest.isEmpty { return (number, nil) }
        if setOff {
            let title = rest.drop { ".:—–- ".contains($0) }.trimmingWhitespace()
            return (number, title.isEmpty ? nil : title)
        }
        if let title = separatedTitle(Substring(rest)) { return (number, title) }
        // `Chapter 1 PETER BREAKS THROUGH`: a title in capitals needs no mark.
        let letters = rest.filter(\.isLetter)
        guard !letters.isEmpty, letters == letters.uppercased() else { return nil }
        return (number, rest.trimmingWhitespace())
    }

    private static func separatedTitle(_ rest: Substring) -> String? {
        let trimmed = rest.drop { $0 == " " }
        guard let first = trimmed.first, ".:—–-".contains(first) else { return nil }
        let title = trimmed.drop { ".:—–- ".contains($0) }.trimmingWhitespace()
        return title.isEmpty ? nil : title
    }

    /// `XXII[1]`: the number with a note's marker after it.
    private static func withoutNoteMarker(_ text: String) -> String {
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else { return text }
        return String(text[..<open])
    }

    private static func trimmedPunctuation(_ text: String) -> String {
        var result = Substring(text)
        while let last = result.last, ".:,;".contains(last) { result = result.dropLast() }
        return String(result)
    }

    private static let keywords: [String: HeadingLine.Kind] = {
        var table: [String: HeadingLine.Kind] = [:]
        for word in ["VOLUME", "VOL", "TOME", "TOMO", "BAND", "VOLUMEN", "DEEL"] { table[word] = .volume }
        for word in ["PART", "TEIL", "PARTE", "PARTIE", "PARS"] { table[word] = .part }
        for word in ["BOOK", "LIVRE", "BUCH", "LIBRO", "BOEK", "KIRJA", "KNIGA", "LIVRO", "LIBER", "OSA"] { table[word] = .book }
        for word in ["ACT", "ACTE", "AKT", "ATTO", "ACTO", "AUFZUG"] { table[word] = .act }
        for word in ["CHAPTER", "CHAP", "CHAPITRE", "KAPITEL", "CAPÍTULO", "CAPITULO", "CAPITOLO", "HOOFDSTUK",
                     "KAPITTEL", "KAPITOLA", "ROZDZIAŁ", "GLAVA", "LETTER", "STAVE", "CANTO", "RUNO", "LAULU",
                     "ADVENTURE", "LUKU", "CAPUT", "CAPITVLVM", "CAPITULUM", "DIALOGUE", "DIALOG", "DIALOGO", "DIÁLOGO"] {
            table[word] = .chapter
        }
        for word in ["SCENE", "SCÈNE", "SZENE", "ESCENA", "SCENA", "AUFTRITT"] { table[word] = .scene }
        for word in ["EPILOGUE", "PROLOGUE", "EPILOG", "PROLOG", "ÉPILOGUE", "EPÍLOGO", "PRÓLOGO", "EPILOGO", "PROLOGO",
                     "PRELUDE", "FINALE", "INTERLUDE", "INTRODUCTION"] {
            table[word] = .outermost
        }
        return table
    }()

    /// A heading word alone (`SCENE`): no title of the heading before it.
    static func isKeyword(_ line: some StringProtocol) -> Bool {
        keyword(line.trimmingWhitespace()) != nil
    }

    private static func keyword(_ word: some StringProtocol) -> HeadingLine.Kind? {
        keywords[trimmedPunctuation(String(word)).uppercased()]
    }

    private static func cardinal(_ word: String) -> Int? { SpelledNumbers.cardinal(word) }

    private static func ordinal(_ word: Substring) -> Int? { SpelledNumbers.ordinal(trimmedPunctuation(String(word))) }

    /// A number alone (`7`, `12.`): a chapter's number where markup says
    /// the line is a heading; in plain text, a page's or a verse's.
    static func numberAlone(_ line: some StringProtocol) -> HeadingLine? {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.contains(" "), let number = figureAlone(Substring(trimmed)), number > 0 else { return nil }
        return HeadingLine(kind: .numeral, number: number, title: nil)
    }

    /// A numeral and a stop before a title in any case (`VIII.
    /// Literaturverzeichnis.`, `12. The Bull`): a chapter where markup says
    /// the line is a heading. A letter alone is a numeral only as I, V or X
    /// (`M. Dupont` is a name).
    static func numberedTitle(_ line: some StringProtocol) -> HeadingLine? {
        let words = line.trimmingWhitespace().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard words.count == 2, words[0].hasSuffix("."), words[1].first?.isUppercase == true else { return nil }
        let numeral = String(words[0].dropLast())
        guard numeral.count > 1 || "IVX".contains(numeral),
              let number = romanValue(numeral) ?? figureAlone(words[0]), number > 0
        else { return nil }
        return HeadingLine(kind: .numeral, number: number, title: String(words[1]))
    }

    /// Figures that number a heading with no word of kind before them: a
    /// chapter's number has at most three; four are a year (`1703.` under
    /// EPOCH THE FIRST, `1848. The Revolution`).
    private static func figureAlone(_ word: Substring) -> Int? {
        plainNumber(word).flatMap { $0 < 1000 ? $0 : nil }
    }

    private static func plainNumber(_ word: Substring) -> Int? {
        let digits = trimmedPunctuation(String(word))
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(digits)
    }

    /// The value of a roman numeral written the usual way (`XIV`, not
    /// `XIIII`), so that a word made of those letters is not taken for one.
    private static let romanDigits: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]

    static func romanValue(_ text: String, lowercaseToo: Bool = false) -> Int? {
        guard !text.isEmpty, text.count <= 15 else { return nil }
        let upper = text.uppercased()
        guard lowercaseToo || upper == text else { return nil }
        var total = 0
        var previous = 0
        for character in upper.reversed() {
            guard let value = romanDigits[character] else { return nil }
            if value < previous { total -= value } else { total += value; previous = value }
        }
        guard total > 0, total < 4000, roman(total) == upper else { return nil }
        return total
    }

    private static func roman(_ number: Int) -> String {
        let symbols: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                                        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = number
        var result = ""
        for (value, symbol) in symbols {
            while rest >= value {
                result += symbol
                rest -= value
            }
        }
        return result
    }
}
