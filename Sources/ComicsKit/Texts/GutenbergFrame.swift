/// Where the work sits inside a Project Gutenberg file: after the header
/// (the `*** START OF …` marker in any of its spellings, or the 1990s
/// "small print" block that had none), before the footer (`*** END OF …`,
/// "End of the Project Gutenberg EBook of …", or the licence itself), and
/// without the producers' credits and header remnants at its front.
enum GutenbergFrame {
    /// The range of `lines` that holds the work.
    static func work(in lines: TextLines) -> Range<Int> {
        let start = startOfWork(in: lines)
        var end = lines.count
        for index in start..<lines.count where isEndMarker(lines[index]) {
            end = index
            break
        }
        return skippingCredits(in: lines, from: start, to: end)..<end
    }

    /// After the last header marker in the first half of the file: the
    /// START line, or the end of the small print when a file has that.
    private static func startOfWork(in lines: TextLines) -> Int {
        var start = 0
        let searched = max(lines.count / 2, min(lines.count, 400))
        for index in 0..<searched {
            let line = lines[index]
            guard line.utf8.first(where: { $0 != 0x20 }) == UInt8(ascii: "*") || line.includes("SMALL PRINT") else { continue }
            let upper = line.uppercased()
            if isStartMarker(upper) {
                start = index + 1
                // A marker that wraps: `*** START OF … LES` / `MISÉRABLES ***`.
                if !upper.trimmingWhitespace().hasSuffix("*"), start < lines.count,
                   lines[start].trimmingWhitespace().hasSuffix("***") {
                    start += 1
                }
                if !upper.includes("SMALL PRINT") { break }
            } else if upper.includes("END") && upper.includes("SMALL PRINT") && upper.includes("*END") {
                start = index + 1
            }
        }
        return start
    }

    /// `*** START OF THE PROJECT GUTENBERG EBOOK …` in any spelling (upper-cased).
    static func isStartMarker(_ upper: String) -> Bool {
        upper.includes("START OF") && mentionsGutenberg(upper) && upper.hasPrefix("*")
    }

    private static func mentionsGutenberg(_ upper: String) -> Bool {
        upper.includes("GUTENBERG") || upper.includes("EBOOK") || upper.includes("ETEXT") || upper.includes("E-TEXT")
    }

    /// An END marker, indented or not, with or without its spaces; the
    /// "End of (the) Project Gutenberg('s) …" line before it; or the licence
    /// or small print that follows a work whose markers are missing. A
    /// contents line that says "End of the First Night Watch" is no end:
    /// it does not begin that way, nor name Project Gutenberg.
    static func isEndMarker(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " }
        guard let first = trimmed.first, first == "*" || first == "E" || first == "e" else { return false }
        // Most lines that begin with an E are not "END …": told by their bytes.
        if first != "*", !trimmed.utf8.prefix(3).map({ $0 | 0x20 }).elementsEqual("end".utf8) { return false }
        let upper = trimmed.prefix(120).uppercased()
        if first == "*" {
            let words = upper.drop { $0 == "*" || $0 == " " }
            return (words.hasPrefix("END OF") && mentionsGutenberg(upper))
                || words.hasPrefix("START: FULL LICENSE")
                || (words.hasPrefix("START") && upper.includes("SMALL PRINT"))
        }
        return upper.hasPrefix("END OF") && upper.includes("GUTENBERG")
            && (upper.hasPrefix("END OF THE PROJECT GUTENBERG") || upper.hasPrefix("END OF PROJECT GUTENBERG")
                || upper.hasPrefix("END OF THIS PROJECT GUTENBERG"))
    }

    /// The first paragraphs after the marker that credit the producers or
    /// repeat the header ("Produced by …", "The Project Gutenberg Etext of
    /// …", a line of stars) are not the work.
    private static func skippingCredits(in lines: TextLines, from start: Int, to end: Int) -> Int {
        var index = start
        var paragraphsSeen = 0
        while paragraphsSeen < 8 {
            while index < end, lines[index].allSatisfy({ $0 == " " }) { index += 1 }
            guard index < end else { return start }
            var paragraphEnd = index
            while paragraphEnd < end, !lines[paragraphEnd].allSatisfy({ $0 == " " }) { paragraphEnd += 1 }
            let first = lines[index].trimmingWhitespace().lowercased()
            guard isFrontNoise(first) else { return index }
            index = paragraphEnd
            paragraphsSeen += 1
        }
        return index
    }

    private static let creditOpenings = [
        "produced by", "this etext was produced by", "this ebook was produced by", "e-text prepared by",
        "etext prepared by", "this etext was prepared by", "this ebook was prepared by", "prepared by",
        "transcribed from", "transcribed by", "scanned by", "digitized by", "html version by",
        "this etext was created by", "this ebook was created by", "created by",
        "we thank ", "nous remercions ", "an html version", "html version of this", "an illustrated html version", "this etext is",
        "e-text prepared", "etext prepared", "note: project gutenberg also has an html version",
    ]

    /// A paragraph opening (lower-cased) that credits the producers or
    /// repeats the header: not the work.
    static func isFrontNoise(_ opening: String) -> Bool {
        isCredit(opening) || isHeaderRemnant(opening)
    }

    private static func isCredit(_ opening: String) -> Bool {
        creditOpenings.contains { opening.hasPrefix($0) }
    }

    private static func isHeaderRemnant(_ opening: String) -> Bool {
        opening.allSatisfy({ $0 == "*" || $0 == " " })
            || opening.hasPrefix("the project gutenberg etext of") || opening.hasPrefix("the project gutenberg ebook of")
            || opening.hasPrefix("project gutenberg's") || opening.hasPrefix("project gutenberg’s")
    }
}
