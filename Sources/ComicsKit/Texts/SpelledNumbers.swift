import Dispatch

/// Numbers written out as headings write them, 1 to 100: ordinals in
/// English, French, German, Spanish, Italian, Finnish, Dutch, Portuguese
/// and Latin (`FIRST`, `vingt-et-unième`, `Dritter`, `Yhdestoista`,
/// `Viideskymmenes`, `decimoquinto`), and English cardinals (`TWENTY-ONE`).
/// Keys are upper-cased; a compound may be one word, hyphenated or two
/// words joined by a space.
enum SpelledNumbers {
    /// Builds the tables on another core, while the caller decodes a
    /// file: the rules that look words up (on every core) then find them
    /// ready instead of waiting for one core to build them.
    static func prepareTables() {
        DispatchQueue.global(qos: .userInitiated).async { _ = firstOfTwoWords.count + lowercased.count }
    }

    static func ordinal(_ word: String) -> Int? { ordinals[word.uppercased()] }

    /// An ordinal of two words (`vigésimo primero`) whose first is `first`.
    static func ordinal(_ first: some StringProtocol, _ second: some StringProtocol) -> Int? {
        let upper = first.uppercased()
        guard firstOfTwoWords.contains(upper) else { return nil }
        return ordinals[upper + " " + second.uppercased()]
    }

    /// Whether an upper-cased word is an ordinal or the first word of one.
    static func mayBeginOrdinal(_ upper: String) -> Bool {
        ordinals[upper] != nil || firstOfTwoWords.contains(upper)
    }

    /// The first words of ordinals of two words, and of French ones whose
    /// `et` may be spaced (`VINGT` of `VINGT ET UNIÈME`).
    private static let firstOfTwoWords: Set<String> = Set(ordinals.keys.compactMap { key -> String? in
        if key.contains(" ") { return key.split(separator: " ").first.map(String.init) }
        let parts = key.split(separator: "-")
        return parts.firstIndex(of: "ET").flatMap { $0 > 0 ? parts[..<$0].joined(separator: "-") : nil }
    })
    static func cardinal(_ word: String) -> Int? { cardinals[word.uppercased()] }
    /// Either, for a word already lower-cased (a contents entry's).
    static func number(lowercased word: String) -> Int? { lowercased[word] }

    private static let lowercased: [String: Int] = {
        var table: [String: Int] = [:]
        for (word, number) in cardinals { table[word.lowercased()] = number }
        for (word, number) in ordinals { table[word.lowercased()] = number }
        return table
    }()

    static let cardinals: [String: Int] = {
        var table: [String: Int] = [:]
        for number in 1...100 { table[english(number)] = number }
        return table
    }()

    static let ordinals: [String: Int] = {
        var table: [String: Int] = [:]
        func add(_ words: [String], _ number: Int) {
            for word in words where !word.isEmpty {
                let key = latinUppercased(word)
                if table[key] == nil { table[key] = number }
            }
        }
        for number in 1...100 {
            add(englishOrdinal(number), number)
            add(french(number), number)
            add(german(number), number)
            add(spanish(number), number)
            add(italian(number), number)
            add(finnish(number), number)
            add(dutch(number), number)
            add(portuguese(number), number)
            add(latin(number), number)
        }
        return table
    }()

    /// `uppercased()` for the tables' words (Latin-1 letters, hyphens,
    /// spaces) without looking up each letter's properties: building
    /// the tables is on the way of every download.
    static func latinUppercased(_ word: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            switch scalar.value {
            case 0x61...0x7A, 0xE0...0xF6, 0xF8...0xFE: scalars.append(Unicode.Scalar(scalar.value - 0x20)!)
            case 0xDF: scalars.append(contentsOf: "SS".unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    // MARK: English

    private static let englishUnits = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                                       "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    private static let englishTens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    private static func english(_ number: Int) -> String {
        if number == 100 { return "ONE HUNDRED" }
        if number < 20 { return englishUnits[number].uppercased() }
        let unit = number % 10
        return (englishTens[number / 10] + (unit == 0 ? "" : "-" + englishUnits[unit])).uppercased()
    }

    private static let englishUnitOrdinals = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                                              "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                                              "seventeenth", "eighteenth", "nineteenth"]

    private static func englishOrdinal(_ number: Int) -> [String] {
        if number == 100 { return ["hundredth", "one hundredth"] }
        if number < 20 { return [englishUnitOrdinals[number]] }
        let ten = englishTens[number / 10], unit = number % 10
        if unit == 0 { return [String(ten.dropLast()) + "ieth"] }
        return [ten + "-" + englishUnitOrdinals[unit], ten + " " + englishUnitOrdinals[unit]]
    }

    // MARK: French

    private static let frenchUnits = ["", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
                                      "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"]
    private static let frenchTens = ["", "", "vingt", "trente", "quarante", "cinquante", "soixante", "soixante", "quatre-vingt", "quatre-vingt"]

    private static func frenchCardinal(_ number: Int) -> String {
        if number == 100 { return "cent" }
        if number < 20 { return frenchUnits[number] }
        let tens = number / 10
        var rest = number % 10
        if tens == 7 || tens == 9 { rest += 10 }
        let ten = frenchTens[tens]
        if rest == 0 { return ten }
        if rest == 1 && tens != 8 { return ten + "-et-un" }
        if rest == 11 && tens == 7 { return ten + "-et-onze" }
        return ten + "-" + frenchUnits[rest]
    }

    private static func french(_ number: Int) -> [String] {
        if number == 1 { return ["premier", "première", "premiere"] }
        if number == 2 { return ["deuxième", "second", "seconde", "deuxieme"] }
        var cardinal = frenchCardinal(number)
        if cardinal.hasSuffix("cinq") { cardinal += "u" }
        if cardinal.hasSuffix("neuf") { cardinal = String(cardinal.dropLast()) + "v" }
        if cardinal.hasSuffix("e") { cardinal.removeLast() }
        let ordinal = cardinal + "ième"
        return [ordinal, ordinal.replacingE()]
    }

    // MARK: German

    private static let germanUnits = ["", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf",
                                      "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"]
    private static let germanTens = ["", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"]

    private static func german(_ number: Int) -> [String] {
        var stems: [String]
        switch number {
        case 1: stems = ["erst"]
        case 3: stems = ["dritt"]
        case 7: stems = ["siebent", "siebt"]
        case 8: stems = ["acht"]
        case 100: stems = ["hundertst"]
        case 2..<20: stems = [germanUnits[number] + "t"]
        default:
            let unit = number % 10, ten = germanTens[number / 10]
            stems = [(unit == 0 ? "" : germanUnits[unit] + "und") + ten + "st"]
        }
        return stems.flatMap { stem in ["e", "er", "es", "en", "em"].map { stem + $0 } }
    }

    // MARK: Spanish and Portuguese

    private static let spanishUnits = ["", "primero", "segundo", "tercero", "cuarto", "quinto", "sexto", "séptimo", "octavo", "noveno"]
    private static let spanishTens = ["", "décimo", "vigésimo", "trigésimo", "cuadragésimo", "quincuagésimo", "sexagésimo",
                                      "septuagésimo", "octogésimo", "nonagésimo"]

    private static func spanish(_ number: Int) -> [String] {
        var words: [String]
        if number == 100 {
            words = ["centésimo"]
        } else if number < 10 {
            words = [spanishUnits[number]]
            if number == 1 { words.append("primer") }
            if number == 3 { words.append("tercer") }
            if number == 7 { words.append("sétimo") }
            if number == 9 { words.append("nono") }
        } else {
            let ten = spanishTens[number / 10], unit = number % 10
            if unit == 0 {
                words = [ten]
            } else {
                let joined = ten.withoutAccents() + spanishUnits[unit]
                words = [ten + " " + spanishUnits[unit], joined]
                if number == 11 { words.append("undécimo") }
                if number == 12 { words.append("duodécimo") }
            }
        }
        return withGenders(words, masculine: "o", feminine: "a")
    }

    private static let portugueseUnits = ["", "primeiro", "segundo", "terceiro", "quarto", "quinto", "sexto", "sétimo", "oitavo", "nono"]
    private static let portugueseTens = ["", "décimo", "vigésimo", "trigésimo", "quadragésimo", "quinquagésimo", "sexagésimo",
                                         "septuagésimo", "octogésimo", "nonagésimo"]

    private static func portuguese(_ number: Int) -> [String] {
        if number == 100 { return withGenders(["centésimo"], masculine: "o", feminine: "a") }
        if number < 10 { return withGenders([portugueseUnits[number]], masculine: "o", feminine: "a") }
        let ten = portugueseTens[number / 10], unit = number % 10
        return withGenders(unit == 0 ? [ten] : [ten + " " + portugueseUnits[unit]], masculine: "o", feminine: "a")
    }

    /// Each word, and its feminine (`primera`, `décima quinta`).
    private static func withGenders(_ words: [String], masculine: Character, feminine: Character) -> [String] {
        words.flatMap { word -> [String] in
            let feminineWord = String(word.split(separator: " ").map { part in
                part.last == masculine ? String(part.dropLast()) + String(feminine) : String(part)
            }.joined(separator: " "))
            return [word, feminineWord, word.withoutAccents(), feminineWord.withoutAccents()]
        }
    }

    // MARK: Italian

    private static let italianUnits = ["", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "undici",
                                       "dodici", "tredici", "quattordici", "quindici", "sedici", "diciassette", "diciotto", "diciannove"]
    private static let italianTens = ["", "", "venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta", "ottanta", "novanta"]
    private static let italianFirst = ["", "primo", "secondo", "terzo", "quarto", "quinto", "sesto", "settimo", "ottavo", "nono", "decimo"]

    private static func italian(_ number: Int) -> [String] {
        let masculine: String
        if number <= 10 {
            masculine = italianFirst[number]
        } else if number == 100 {
            masculine = "centesimo"
        } else {
            var cardinal: String
            if number < 20 {
                cardinal = italianUnits[number]
            } else {
                let unit = number % 10
                var ten = italianTens[number / 10]
                if unit == 1 || unit == 8 { ten.removeLast() }
                cardinal = ten + italianUnits[unit]
            }
            if cardinal.hasSuffix("tre") || cardinal.hasSuffix("sei") {
                masculine = cardinal + "esimo"
            } else {
                masculine = String(cardinal.dropLast()) + "esimo"
            }
        }
        return [masculine, String(masculine.dropLast()) + "a"]
    }

    // MARK: Finnish

    private static let finnishOrdinals = ["", "ensimmäinen", "toinen", "kolmas", "neljäs", "viides", "kuudes", "seitsemäs",
                                          "kahdeksas", "yhdeksäs", "kymmenes"]
    /// The ordinals' stems in compounds (`yhdestoista`, `kahdeskymmenes`).
    private static let finnishStems = ["", "yhdes", "kahdes", "kolmas", "neljäs", "viides", "kuudes", "seitsemäs", "kahdeksas", "yhdeksäs"]

    private static func finnish(_ number: Int) -> [String] {
        if number <= 10 { return number == 1 ? ["ensimmäinen", "ensimäinen"] : [finnishOrdinals[number]] }
        if number == 100 { return ["sadas"] }
        if number < 20 { return [finnishStems[number - 10] + "toista"] }
        let tens = finnishStems[number / 10] + "kymmenes", unit = number % 10
        if unit == 0 { return [tens] }
        return [tens + finnishOrdinals[unit], tens + " " + finnishOrdinals[unit]]
    }

    // MARK: Dutch

    private static let dutchUnits = ["", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", "tien", "elf",
                                     "twaalf", "dertien", "veertien", "vijftien", "zestien", "zeventien", "achttien", "negentien"]
    private static let dutchTens = ["", "", "twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig", "tachtig", "negentig"]

    private static func dutch(_ number: Int) -> [String] {
        switch number {
        case 1: return ["eerste"]
        case 3: return ["derde"]
        case 8: return ["achtste"]
        case 100: return ["honderdste"]
        case 2..<20: return [dutchUnits[number] + "de"]
        default:
            let unit = number % 10
            let joiner = unit == 2 || unit == 3 ? "ën" : "en"
            return [(unit == 0 ? "" : dutchUnits[unit] + joiner) + dutchTens[number / 10] + "ste"]
        }
    }

    // MARK: Latin

    private static let latinUnits = ["", "primus", "secundus", "tertius", "quartus", "quintus", "sextus", "septimus", "octavus", "nonus"]
    private static let latinTens = ["", "decimus", "vicesimus", "tricesimus", "quadragesimus", "quinquagesimus", "sexagesimus",
                                    "septuagesimus", "octogesimus", "nonagesimus"]

    private static func latin(_ number: Int) -> [String] {
        var words: [String]
        if number == 100 {
            words = ["centesimus"]
        } else if number < 10 {
            words = [latinUnits[number]]
        } else if number == 11 {
            words = ["undecimus"]
        } else if number == 12 {
            words = ["duodecimus"]
        } else {
            let unit = number % 10, ten = latinTens[number / 10]
            words = unit == 0 ? [ten] : [latinUnits[unit] + " " + ten, ten + " " + latinUnits[unit]]
            if number / 10 == 2 { words += words.map { $0.replacingFirst("vicesimus", with: "vigesimus") } }
        }
        return words.flatMap { word in
            [word, word.replacingSuffixes("us", with: "a"), word.replacingSuffixes("us", with: "um")]
        }
    }
}

private extension String {
    /// French `é` and `è` as files without accents write them.
    func replacingE() -> String {
        String(map { $0 == "è" || $0 == "é" ? "e" : $0 })
    }

    func withoutAccents() -> String {
        let plain: [Character: Character] = ["á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "è": "e", "ê": "e", "ç": "c"]
        return String(map { plain[$0] ?? $0 })
    }

    func replacingFirst(_ old: String, with new: String) -> String {
        split(separator: " ").map { $0 == old ? new : String($0) }.joined(separator: " ")
    }

    /// `tertius decimus` → `tertia decima`: each word's ending.
    func replacingSuffixes(_ old: String, with new: String) -> String {
        split(separator: " ").map { $0.hasSuffix(old) ? String($0.dropLast(old.count)) + new : String($0) }.joined(separator: " ")
    }
}
