/// What a heading line says: `CHAPTER I.`, `Chapter 1`, `CHAPTER 1.
/// Loomings.`, `BOOK ONE: 1805`, `FIRST ACT`, `SECOND EPILOGUE`,
/// `CHAPITRE II`, `Ensimmäinen runo`, or a roman numeral alone.
struct HeadingLine: Equatable {
    enum Kind: Int, Comparable {
        /// Prologues and epilogues stand beside the outermost divisions.
        case outermost = -1
        case volume = 0, book, act, chapter, scene
        /// A numeral alone on its line (sonnets, short chapters).
        case numeral

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
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
        let text = line.trimmingWhitespace()
        guard !text.isEmpty, text.count <= longest, let firstScalar = text.unicodeScalars.first,
              firstScalar.properties.isUppercase || ("0"..."9").contains(firstScalar)
        else { return nil }
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if let numeral = romanValue(trimmedPunctuation(text)), numeral > 0, text.count <= 12,
           !text.contains(" "), text.uppercased() == text {
            return HeadingLine(kind: .numeral, number: numeral, title: nil)
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
        }
        return nil
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
        let bare = trimmedPunctuation(withoutNoteMarker(trimmedPunctuation(String(token))))
        guard let number = romanValue(bare, lowercaseToo: true) ?? plainNumber(Substring(bare)) ?? cardinal(bare) else { return nil }
        let rest = words.dropFirst().joined(separator: " ")
        let setOff = token.last.map { ".:,".contains($0) } ?? false
        if rest.isEmpty { return (number, nil) }
        if setOff { return (number, rest.trimmingWhitespace()) }
        guard let title = separatedTitle(Substring(rest)) else { return nil }
        return (number, title)
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
        for word in ["VOLUME", "VOL", "TOME", "TOMO", "BAND"] { table[word] = .volume }
        for word in ["BOOK", "PART", "LIVRE", "BUCH", "TEIL", "LIBRO", "PARTE", "BOEK", "DEEL", "KIRJA", "KNIGA", "PARTIE"] {
            table[word] = .book
        }
        for word in ["ACT", "ACTE", "AKT", "ATTO", "ACTO", "AUFZUG"] { table[word] = .act }
        for word in ["CHAPTER", "CHAP", "CHAPITRE", "KAPITEL", "CAPÍTULO", "CAPITULO", "CAPITOLO", "HOOFDSTUK",
                     "KAPITTEL", "KAPITOLA", "ROZDZIAŁ", "GLAVA", "LETTER", "STAVE", "CANTO", "RUNO", "LAULU",
                     "ADVENTURE", "LUKU"] {
            table[word] = .chapter
        }
        for word in ["SCENE", "SCÈNE", "SZENE", "ESCENA", "SCENA", "AUFTRITT"] { table[word] = .scene }
        for word in ["EPILOGUE", "PROLOGUE", "EPILOG", "PROLOG", "ÉPILOGUE", "EPÍLOGO", "PRÓLOGO", "EPILOGO", "PROLOGO"] {
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

    private static let cardinals: [String: Int] = {
        let units = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]
        let teens = ["TEN", "ELEVEN", "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN"]
        let tens = ["TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"]
        var table: [String: Int] = [:]
        for (index, word) in units.enumerated() { table[word] = index + 1 }
        for (index, word) in teens.enumerated() { table[word] = index + 10 }
        for (index, ten) in tens.enumerated() {
            table[ten] = (index + 2) * 10
            for (unit, word) in units.enumerated() { table["\(ten)-\(word)"] = (index + 2) * 10 + unit + 1 }
        }
        return table
    }()

    private static func cardinal(_ word: String) -> Int? { cardinals[word.uppercased()] }

    private static let ordinals: [String: Int] = {
        let english = ["FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH", "TENTH",
                       "ELEVENTH", "TWELFTH", "THIRTEENTH", "FOURTEENTH", "FIFTEENTH", "SIXTEENTH", "SEVENTEENTH",
                       "EIGHTEENTH", "NINETEENTH", "TWENTIETH"]
        let finnish = ["ENSIMMÄINEN", "TOINEN", "KOLMAS", "NELJÄS", "VIIDES", "KUUDES", "SEITSEMÄS", "KAHDEKSAS",
                       "YHDEKSÄS", "KYMMENES"]
        let german = ["ERSTES", "ZWEITES", "DRITTES", "VIERTES", "FÜNFTES", "SECHSTES", "SIEBENTES", "ACHTES"]
        let french = ["PREMIER", "DEUXIÈME", "TROISIÈME", "QUATRIÈME", "CINQUIÈME", "SIXIÈME", "SEPTIÈME", "HUITIÈME"]
        var table: [String: Int] = ["ENSIMÄINEN": 1, "PREMIÈRE": 1, "SECONDE": 2, "ERSTER": 1, "ERSTE": 1, "ZWEITER": 2, "ZWEITE": 2]
        for list in [english, finnish, german, french] {
            for (index, word) in list.enumerated() { table[word] = index + 1 }
        }
        return table
    }()

    private static func ordinal(_ word: Substring) -> Int? { ordinals[trimmedPunctuation(String(word)).uppercased()] }

    private static func plainNumber(_ word: Substring) -> Int? {
        let digits = trimmedPunctuation(String(word))
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(digits)
    }

    /// The value of a roman numeral written the usual way (`XIV`, not
    /// `XIIII`), so that a word made of those letters is not taken for one.
    static func romanValue(_ text: String, lowercaseToo: Bool = false) -> Int? {
        guard !text.isEmpty, text.count <= 15 else { return nil }
        let upper = text.uppercased()
        guard lowercaseToo || upper == text else { return nil }
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        var total = 0
        var previous = 0
        for character in upper.reversed() {
            guard let value = values[character] else { return nil }
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
