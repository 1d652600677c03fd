@testable import ComicsKit
import TestSupport
import XCTest

/// Every fixture HTML edition through the rules: the work alone, its
/// outline from the markup, the same blocks a plain text makes.
final class GutenbergHTMLTests: XCTestCase {
    struct Expected {
        let file: String
        let firstWords: String
        let lastWords: String
        let sentences: [String]
        let sectionsByLevel: [Int: Int]
        let titles: [Int: String]
    }

    static let expected: [Expected] = [
        Expected(file: "pg11-images.html", firstWords: "Alice’s Adventures in Wonderland by Lewis Carroll", lastWords: "THE END",
                 sentences: ["Alice was beginning to get very tired of sitting by her sister on the bank"],
                 sectionsByLevel: [0: 12], titles: [0: "CHAPTER I. Down the Rabbit-Hole", 11: "CHAPTER XII. Alice’s Evidence"]),
        Expected(file: "pg11.11-h.htm", firstWords: "ALICE’S ADVENTURES IN WONDERLAND", lastWords: "THE END",
                 sentences: ["Alice was beginning to get very tired of sitting by her sister on the bank"],
                 sectionsByLevel: [0: 12], titles: [0: "CHAPTER I. Down the Rabbit-Hole", 7: "CHAPTER VIII. The Queen’s Croquet-Ground"]),
        Expected(file: "pg1342-images.html", firstWords: "[Colophon", lastWords: "CHANCERY LANE, LONDON.",
                 sentences: ["IT is a truth universally acknowledged, that a single man in possession of a good fortune must be in want of a wife."],
                 sectionsByLevel: [0: 62], titles: [0: "PREFACE.", 1: "Chapter I.", 2: "CHAPTER II.", 61: "CHAPTER LXI."]),
        Expected(file: "pg1342.1342-h.htm", firstWords: "PRIDE AND PREJUDICE By Jane Austen", lastWords: "the means of uniting them.",
                 sentences: ["It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife."],
                 sectionsByLevel: [0: 61], titles: [0: "Chapter 1", 35: "Chapter 36", 60: "Chapter 61"]),
        Expected(file: "pg2701.2701-h.htm", firstWords: "MOBY-DICK; or, THE WHALE.", lastWords: "only found another orphan.",
                 sentences: ["Call me Ishmael."], sectionsByLevel: [0: 138],
                 titles: [0: "ETYMOLOGY.", 1: "EXTRACTS. (Supplied by a Sub-Sub-Librarian).", 2: "CHAPTER 1. Loomings.", 137: "Epilogue"]),
    ]

    func testEachFixtureEditionIsTheWorkAloneWithItsOutline() throws {
        for expected in Self.expected {
            let (content, encoding, hasOutline) = GutenbergHTML.content(of: try Fixtures.gutenberg(expected.file))
            XCTAssertEqual(encoding, .utf8, expected.file)
            XCTAssertTrue(hasOutline, expected.file)
            GutenbergTextTests.assertIsTheWorkAlone(
                content, expected.file, firstWords: expected.firstWords, lastWords: expected.lastWords, sentences: expected.sentences,
                sectionsByLevel: expected.sectionsByLevel, titles: expected.titles,
                licence: GutenbergTextTests.licencePhrases + ["{ix}", "{6}", "Project Gutenberg eBook"])
            for section in content.sections {
                XCTAssertEqual(content.blocks[section.firstBlock].kind, .heading, "\(expected.file): \(section.title) opens at its heading")
            }
        }
    }

    /// Both editions of a book give the same chapters, where the plain
    /// text's rules are right.
    func testBothEditionsOfAliceHaveTheSameChapters() throws {
        let html = GutenbergHTML.content(of: try Fixtures.gutenberg("pg11-images.html")).content
        let text = GutenbergText.content(of: try Fixtures.gutenberg("pg11.txt")).content
        XCTAssertEqual(html.sections.map(\.title), text.sections.map(\.title))
        XCTAssertEqual(Double(html.wordCount), Double(text.wordCount), accuracy: Double(text.wordCount) * 0.03)
    }

    func testMarkupBecomesTheBlocksThePlainTextRulesMake() throws {
        let content = GutenbergHTML.content(of: try Fixtures.gutenberg("pg1342-images.html")).content
        // A drop capital drawn as a picture is its word's first letter.
        XCTAssertTrue(content.blocks.contains { $0.kind == .prose && $0.text.hasPrefix("MR. BENNET was among the earliest") })
        // A picture in a chapter's heading tag is an illustration after it.
        let second = content.sections[2]
        XCTAssertEqual(content.blocks[second.firstBlock + 1], TextBlock(.illustration, "I hope Mr. Bingley will like it.", link: "images/i_035_a.jpg"))
        XCTAssertGreaterThanOrEqual(content.blocks.filter { $0.kind == .illustration }.count, 100)
        XCTAssertFalse(content.blocks.contains { $0.kind == .illustration && $0.text.hasPrefix(" ") }, "an alt text of spaces is none")
        let alice = GutenbergHTML.content(of: try Fixtures.gutenberg("pg11-images.html")).content
        XCTAssertTrue(alice.blocks.contains { $0.text.contains("There was nothing so _very_ remarkable in that") }, "italics as underscores")
        XCTAssertTrue(alice.blocks.contains { $0.kind == .lines && $0.text.contains("\n") }, "verse line by line")
    }

    /// A paragraph's white space (spaces, tabs, line breaks, no-break
    /// spaces) folds to one space between words, whatever surrounds it:
    /// generated paragraphs of words, signs and spaces.
    func testWhiteSpaceFoldsToOneSpaceBetweenWords() {
        var generator = SystemRandomNumberGenerator()
        let words = ["a", "word", "é", "©", "½", "“quoted”", "x&amp;y"]
        let spaces = [" ", "  ", "\n", "\t", "\u{A0}", " \u{A0} "]
        for _ in 0..<200 {
            let count = Int.random(in: 1...12, using: &generator)
            let chosen = (0..<count).map { _ in words.randomElement(using: &generator)! }
            var markup = spaces.randomElement(using: &generator)!
            for word in chosen { markup += word + spaces.randomElement(using: &generator)! }
            let html = "<html><body><h1>One</h1><p>\(markup)</p><h1>Two</h1><p>end</p></body></html>"
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            let expected = chosen.joined(separator: " ").replacingOccurrences(of: "&amp;", with: "&")
            XCTAssertTrue(blocks.contains { $0.text == expected }, "\(markup.debugDescription) gave \(blocks.map(\.text))")
        }
    }

    /// An illustration keeps its picture's address as the edition writes
    /// it (beside the edition, or on gutenberg.org; any other is dropped,
    /// never to be fetched), a note the anchor its references point to, and
    /// a paragraph the anchors of the notes it refers to (whichever of a
    /// note's anchors its link names; a link to anything else is none).
    func testIllustrationsKeepTheirPictureNotesTheirAnchorAndReferencesTheirNotes() throws {
        let pictures = try GutenbergHTML.content(of: Fixtures.gutenberg("pg1342-images.html")).content.blocks.filter { $0.kind == .illustration }
        XCTAssertGreaterThan(pictures.filter { $0.link?.hasPrefix("images/") == true }.count, 100)

        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let sources = [
            ("images/a.jpg", "images/a.jpg"), ("https://www.gutenberg.org/cache/epub/9/images/b.png", "https://www.gutenberg.org/cache/epub/9/images/b.png"),
            ("http://evil.example/c.png", nil), ("//evil.example/d.png", nil), ("javascript:alert(1)", nil), ("data:image/png;base64,AAAA", nil),
            ("https://user:pw@www.gutenberg.org/e.png", nil), ("images/\u{1B}[2Jf.png", "images/f.png"),
        ]
        var html = "<html><body><h2>CHAPTER I.</h2><p>\(words)<a href=\"#fn1\">[1]</a></p>"
        for (source, _) in sources { html += "<div class=\"figcenter\"><img src=\"\(source)\" alt=\"A picture\"></div><p>\(words)</p>" }
        html += "<p>Both notes\(words)<a href=\"#note2\">[2]</a> and <a href=\"#fn1\">[1]</a>, and <a href=\"#ch2\">the next chapter</a>.</p>"
        html += "<div class=\"footnote\"><a id=\"fn1\"></a><p>[1] The note itself.</p></div>"
        html += "<div class=\"footnote\"><a id=\"fn2\"></a><a id=\"note2\"></a><p>[2] Another note.</p></div>"
        html += "<h2 id=\"ch2\">CHAPTER II.</h2><p>\(words)<a href=\"#ch2\">here</a></p></body></html>"
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.filter { $0.kind == .illustration }.map(\.link), sources.map(\.1))
        XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.link), ["fn1", "fn2"])
        let paragraphs = blocks.filter { $0.kind != .illustration && $0.kind != .footnote }
        XCTAssertEqual(paragraphs.first { $0.text.hasPrefix("Words") }?.link, "fn1")
        XCTAssertEqual(paragraphs.first { $0.text.hasPrefix("Both notes") }?.link, "fn2 fn1")
        XCTAssertEqual(paragraphs.filter { $0.link != nil }.count, 2, "\(paragraphs.map(\.link))")
    }

    // MARK: - Notes in every markup

    /// Notes in the styles thirty years of editions use (a class or none,
    /// a label that links back or an anchor that says "note", the label
    /// in a paragraph of its own, after the paragraph, the chapter or the
    /// book), marked `[1]`, `1`, `*`, `†` or a superscript, in a paragraph,
    /// a table's cell (a song's verse) or a heading: every note is kept whole as a note, and every
    /// reference reaches it; a heading's section is named without its mark.
    func testEveryNoteIsKeptAndReachedWhateverItsMarkup() {
        var generator = SeededGenerator(seed: 45)
        for round in 0..<60 {
            let book = GeneratedNotes.random(using: &generator)
            let content = GutenbergHTML.content(of: Array(book.html.utf8)).content
            let blocks = content.blocks
            let notes = blocks.filter { $0.kind == .footnote }
            let context = "round \(round):\n\(book.html.prefix(4_000))"
            // A heading's mark is no part of its section's title.
            for note in book.notes where note.inHeading {
                for title in content.sections.map(\.title) where title.contains(note.referenceWord) {
                    XCTAssertTrue(title.hasSuffix("A HEADING \(note.referenceWord)"), "\(title) \(context)")
                }
            }
            XCTAssertEqual(notes.count, book.notes.count, context)
            for note in book.notes {
                guard let kept = notes.first(where: { $0.text.contains(note.word) }), let anchor = kept.link else {
                    XCTFail("note \(note.word) lost, \(context)")
                    continue
                }
                XCTAssertTrue(kept.text.hasSuffix(note.word + " ends here."), "\(kept.text) \(context)")
                let reference = blocks.first { $0.kind != .footnote && $0.text.contains(note.referenceWord) }
                XCTAssertEqual(reference?.link?.split(separator: " ").contains(Substring(anchor)), true,
                               "\(note.referenceWord) does not reach \(anchor): \(reference?.link ?? "no link") \(context)")
                // Whatever its style, the reference's mark is a Tab stop.
                XCTAssertTrue(reference.map { NoteMarks.marks(in: $0.text).contains { $0.label == note.mark } } ?? false,
                              "no mark [\(note.mark)] in \(reference?.text ?? "") \(context)")
            }
        }
    }

    /// A transcriber's note is the edition's text, not a note; a note's
    /// label alone in its paragraph opens its note's text.
    func testATranscribersNoteIsTextAndALabelAloneOpensItsNote() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let html = """
            <html><body><div class="tnote"><p>Transcriber’s Note: spelling kept as printed.</p></div>
            <h2>CHAPTER I.</h2><p>\(words)<a id="FNanchor_1" href="#Footnote_1">[1]</a></p>
            <div class="footnote"><p><a name="Footnote_1"></a><a href="#FNanchor_1"><span class="label">[1]</span></a></p>
            <p>The note’s words.</p></div><h2>CHAPTER II.</h2><p>\(words)</p></body></html>
            """
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Transcriber") }?.kind, .prose)
        XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.text), ["[1] The note’s words."])
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Words") }?.link, "Footnote_1")
    }

    /// A note's label alone in a paragraph with no note's class, its words
    /// in the paragraph after it (a verse): the label's way back to its
    /// reference finds the note, which holds both.
    func testALabelAloneFoundByItsWayBackOpensItsNote() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let html = """
            <html><body><h2>CHAPTER I.</h2><p>\(words)<small><a name="f27.1" href="#f27">[27]</a></small> and the
            <i>lily-white benjamin</i><small><a name="f28.1" href="#f28">[28]</a></small> were held.</p>
            <h2>NOTES</h2><p><a name="f27" href="#f27.1">[27]</a> <i>Max</i>—gin upon credit.</p>
            <p><a name="f28" href="#f28.1">[28]</a></p>
            <p class="poem">"Bleak winter wears a <i>coat</i> of snow."<br /><span style="margin-left: 9em;">
            <i>Recit.</i>—Mr. Gluckman.</span><br /></p><p>The notes end here, and the book too.</p></body></html>
            """
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.text),
                       ["[27] _Max_—gin upon credit.", "[28] \"Bleak winter wears a _coat_ of snow.\" _Recit._—Mr. Gluckman."])
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Words") }?.link, "f27 f28")
    }

    /// A note's way back to its reference that names itself (`(return)`,
    /// `[back]`, `↩`, in the link or around it) is the edition's, not the
    /// note's: the label stays, the word and its brackets go; a note that
    /// happens to end in such a word keeps it.
    func testANotesWayBackWordGoesAndItsLabelStays() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let notes = [("13 (<a href=\"#ref1\">return</a>)<br /> [ For an account see the Life of Poggio.]", "13 [ For an account see the Life of Poggio.]"),
                     ("<a href=\"#ref2\">14 (return)</a><br /> [ Professor Bergh.]", "14 [ Professor Bergh.]"),
                     ("<b>Note 3:</b><a href=\"#ref3\"> (retour) </a> La chèvre de monsieur Seguin.", "Note 3: La chèvre de monsieur Seguin."),
                     ("<a href=\"#ref4\">[4]</a> He never came back.", "[4] He never came back."),
                     ("<a href=\"#ref5\">5</a> Seen at Rome. <a href=\"#ref5\">↩</a>", "5 Seen at Rome.")]
        var body = "", notesHTML = ""
        for (number, (note, _)) in notes.enumerated() {
            body += "<p>\(words)<a id=\"ref\(number + 1)\" href=\"#note\(number + 1)\">[\(number + 1)]</a></p>"
            notesHTML += "<p class=\"foot\"><a id=\"note\(number + 1)\"></a>\(note)</p>"
        }
        let html = "<html><body><h2>CHAPTER I.</h2>\(body)<h2>NOTES</h2>\(notesHTML)</body></html>"
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.text), notes.map(\.1))
    }

    /// The printed contents and list of illustrations go with their
    /// headings; a chapter's own list of its parts keeps its chapter; a
    /// picture's file name (with its size, `bookcover.jpg (153K)`) is no
    /// caption, nor is `see caption`.
    func testAContentsListGoesWithItsHeadingAndAFileNameIsNoCaption() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let html = """
            <html><body><h2>CONTENTS</h2><p><a href="#c1">CHAPTER I.</a></p><p><a href="#c2">CHAPTER II.</a></p>
            <h3>ILLUSTRATIONS</h3><p><a href="#p1">A picture</a></p>
            <h2 id="c1">CHAPTER I.</h2><p><a href="#s1">The first part</a></p><p><a href="#s2">The second part</a></p>
            <h3 id="s1">The first part</h3><p>\(words)</p><div class="figcenter" id="p1"><img src="images/i_012.jpg" alt="i_012"></div><div class="fig"><img src="images/0005.jpg" alt="{0005}"></div><div class="fig"><img src="images/bookcover.jpg" alt="bookcover.jpg (153K)"></div><div class="fig"><img src="images/01-023.jpg" alt="link01-023.jpg (147K)"></div><p class="illustration"><img src="images/fig1.png" alt = "see caption"></p>
            <h3 id="s2">The second part</h3><p>\(words)</p><h2 id="c2">CHAPTER II.</h2><p>\(words)</p></body></html>
            """
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        let texts = content.blocks.map(\.text)
        XCTAssertFalse(texts.contains("CONTENTS"), "\(texts)")
        XCTAssertFalse(texts.contains("ILLUSTRATIONS"), "\(texts)")
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I.", "The first part", "The second part", "CHAPTER II."])
        XCTAssertEqual(content.blocks.filter { $0.kind == .illustration }.map(\.text), ["", "", "", "", ""])
    }

    /// An edition that sets its chapters' headings as paragraphs after a
    /// picture, its contents giving each number a cell of its own (`I.` |
    /// `The birth of the Prince`): each entry opens its chapter at the
    /// paragraph that reads `Chapter I. The birth of the Prince`.
    func testAContentsEntryFindsItsHeadingThoughItsNumberStandsApart() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let titles = ["The birth of the Prince and the Pauper.", "Tom’s early life.", "Tom’s meeting with the Prince."]
        let numerals = ["I.", "II.", "III."]
        for style in ["Chapter", "CHAPTER"] {
            var rows = "", chapters = ""
            for (index, title) in titles.enumerated() {
                rows += "<tr><td>\(numerals[index])&nbsp;&nbsp;</td><td><a href=\"#c\(index + 1)\">\(title)</a><br /></td></tr>"
                chapters += "<p><br /><a name=\"c\(index + 1)\" id=\"c\(index + 1)\"></a><br /></p><div class=\"fig\"><img alt=\"pic.jpg (1K)\" src=\"images/\(index).jpg\" /></div>"
                    + "<p><br /><br /></p><p>\(style) \(numerals[index]) \(title)</p><p>\(words)</p>"
            }
            let html = "<html><body><h1>THE PRINCE AND THE PAUPER</h1><h2>CONTENTS</h2><table summary=\"\">\(rows)</table>\(chapters)</body></html>"
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            XCTAssertEqual(content.sections.map(\.title), titles.indices.map { "\(style) \(numerals[$0]) \(titles[$0])" }, "\(style)")
            XCTAssertFalse(content.blocks.contains { $0.text.contains("CONTENTS") }, "\(content.blocks.map(\.text))")
        }
    }

    /// A way back to the contents under a chapter's subtitle (`<p><a
    /// href="#ToC">ToC</a></p>`) is the edition's and goes alone: the
    /// subtitle stays, and names its chapter.
    func testAWayBackToTheContentsTakesNothingWithIt() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        for way in ["ToC", "Contents", "Back to Contents", "Table of Contents", "Go to top"] {
            let html = """
                <html><body><p><a name="ToC" id="ToC"></a></p><h2>CONTENTS.</h2><table>
                <tr><td>CHAPTER I.</td><td><a href="#c1">The Inn</a></td><td>1</td></tr>
                <tr><td>II.</td><td><a href="#c2">The Old Mint</a></td><td>9</td></tr></table>
                <h2><a name="c1" id="c1"></a>CHAPTER I.</h2><h3>The Inn.</h3><p class="linenum"><a href="#ToC">\(way)</a></p><p>\(words)</p>
                <h2><a name="c2" id="c2"></a>CHAPTER II.</h2><h3>The Old Mint.</h3><p class="linenum"><a href="#ToC">\(way)</a></p><p>\(words)</p>
                </body></html>
                """
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I. The Inn.", "CHAPTER II. The Old Mint."], way)
            XCTAssertFalse(content.blocks.contains { $0.text == way || $0.text == "CONTENTS." }, "\(way): \(content.blocks.map(\.text))")
        }
    }

    /// A heading made of links to the edition's files (a song's sheet
    /// music pages and its MIDI) is the edition's way to them: it goes, and
    /// the contents entry whose anchor stands before it opens the section
    /// at the song's own heading, under its title.
    func testAHeadingOfLinksToTheEditionsFilesGoes() {
        let verse = "<div class=\"poem\"><p>My godmother bids me spin,</p><p>that my heart may not be sad.</p></div>"
        let words = String(repeating: "Words of the act run on here. ", count: 10)
        let songs = ["Spinning Wheel Song", "The Dove Song"]
        var body = "<h2 id=\"act1\">ACT I.</h2><p>\(words)</p>"
        for (index, song) in songs.enumerated() {
            body += """
                <h3><i>\(song)</i></h3><a name="image-\(index)"><!--IMG--></a>
                <h4><a href="images/song\(index)a.png">\(song), Sheet Music, Page 1</a><br /><a href="images/song\(index)b.png">\(song), Sheet Music, Page 2</a><br />
                <a href="music/song\(index).mid">\(song), MIDI</a></h4>\(verse)
                """
        }
        let contents = "<h2>Contents</h2><p class=\"toc\"><a href=\"#act1\">ACT I.</a></p><h2>Songs</h2>"
            + songs.indices.map { "<p class=\"toc\"><a href=\"#image-\($0)\">\(songs[$0])</a></p>" }.joined()
        let content = GutenbergHTML.content(of: Array("<html><body>\(contents)\(body)</body></html>".utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["ACT I."] + songs, "\(content.blocks.map(\.text))")
        XCTAssertFalse(content.blocks.contains { $0.text.contains("Sheet Music") || $0.text.contains("MIDI") }, "\(content.blocks.map(\.text))")
        // A heading that links to a file among its own words keeps them.
        let kept = "<html><body><h2>ACT I.</h2><h3>The <a href=\"music/song.mid\">Spinning Wheel</a> Song</h3><p>\(words)</p></body></html>"
        XCTAssertTrue(GutenbergHTML.content(of: Array(kept.utf8)).content.blocks.contains { $0.text == "The Spinning Wheel Song" })
    }

    /// A glossary's letters (`C`, `D`, `I`, `L`, `M`, `V` among them) are
    /// letters, not roman numerals: they stand side by side, whether the
    /// contents' links or the headings alone give them, and the letters
    /// between two that read as numerals are not their parts; Spanish
    /// `CH` and `LL` are letters too.
    func testAGlossarysLettersAreLettersNotNumerals() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        let english = "ABCDEFGHIJKLMNOPRSTUVWYZ".map(String.init)
        let spanish = ["A", "B", "C", "CH", "D", "E", "F", "G", "H", "I", "J", "L", "LL", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "Y", "Z"]
        for (letters, linked) in [english, spanish].flatMap({ letters in [true, false].map { (letters, $0) } }) {
            // With the contents linking to each letter, or with no contents.
            let contents = linked
                ? "<h2>CONTENTS</h2><p><b><a href=\"#ch1\">The Big Cheese</a></b></p><p><b><a href=\"#ch2\">Lazy Lou</a></b></p>"
                    + "<p><b>" + letters.map { "<a href=\"#AtoZ_\($0)\">\($0)</a> &nbsp; " }.joined() + "</b></p>"
                : ""
            var body = "<h2 id=\"ch1\">The Big Cheese</h2><p>\(words)</p><h2 id=\"ch2\">Lazy Lou</h2><p>\(words)</p>"
            for letter in letters { body += "<h3><a id=\"AtoZ_\(letter)\"></a>\(letter)</h3><p><b>\(letter)ish, a cheese</b></p><p>\(words)</p>" }
            let content = GutenbergHTML.content(of: Array("<html><body>\(contents)\(body)</body></html>".utf8)).content
            let lettered = content.sections.filter { letters.contains($0.title) }
            XCTAssertEqual(lettered.map(\.title), letters, "linked: \(linked)")
            XCTAssertEqual(Set(lettered.map(\.level)).count, 1, "linked: \(linked): \(content.sections.map { "\($0.level) \($0.title)" })")
        }
    }

    /// A contents or a list of illustrations that no link made one goes
    /// whole, its title with it, when its lines name what follows (a
    /// heading, a caption set as a paragraph); a list whose lines name
    /// nothing further on is text and stays.
    func testAListWithoutLinksGoesWholeWhenItsLinesNameWhatFollows() {
        let words = String(repeating: "Words of the story run on here. ", count: 10)
        let story = """
            <h2>CHAPTER I. Christmas Morning</h2><p>\(words)</p><p><i>The Skin Horse Tells His Story</i></p>
            <h2>CHAPTER II. Spring Time</h2><p>\(words)</p>
            """
        let lists = """
            <h3>CONTENTS.</h3><p>I. Christmas Morning . . . 3<br>II. Spring Time . . . 11</p>
            <h3>List of Illustrations</h3><p>The Skin Horse Tells His Story</p><p>Summer Days</p>
            """
        let content = GutenbergHTML.content(of: Array("<html><body><h1>THE RABBIT</h1>\(lists)\(story)</body></html>".utf8)).content
        let texts = content.blocks.map(\.text)
        for gone in ["CONTENTS.", "List of Illustrations", "Summer Days"] { XCTAssertFalse(texts.contains(gone), "\(gone) in \(texts)") }
        XCTAssertFalse(texts.contains { $0.contains("Spring Time . . .") }, "\(texts)")
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I. Christmas Morning", "CHAPTER II. Spring Time"])
        // A chapter's summary under its entry; a song's air under its title.
        let summaries = """
            <h2>CONTENTS.</h2><p>CHAPTER I. VARIATION UNDER DOMESTICATION.<br>Causes of variability, effects of habit.</p>
            <p>III. THE VAGABOND—Give to me the life I love</p><p>IV. THE WANDERER AT SEA—Over the sea and far away</p>
            <h2>CHAPTER I. VARIATION UNDER DOMESTICATION.</h2><p>\(words)</p>
            <h2>III—THE VAGABOND<br>(To an air of Schubert)</h2><p>\(words)</p><h2>IV—THE WANDERER AT SEA<br>(To an air of Brahms)</h2><p>\(words)</p>
            """
        let summarized = GutenbergHTML.content(of: Array("<html><body>\(summaries)</body></html>".utf8)).content.blocks.map(\.text)
        XCTAssertFalse(summarized.contains { $0.hasPrefix("CONTENTS") || $0.contains("Causes of variability") || $0.contains("Give to me") },
                       "\(summarized)")
        let poems = "<h3>CONTENTS</h3><p>Nothing here is a list<br>of what comes after it</p>\(story)"
        let kept = GutenbergHTML.content(of: Array("<html><body>\(poems)</body></html>".utf8)).content.blocks.map(\.text)
        XCTAssertTrue(kept.contains("Nothing here is a list\nof what comes after it"), "\(kept)")
        // At the end of the book, its lines naming what came before (a
        // French book's TABLE); a list of nothing before it stays.
        let chapters = (1...30).map { "<h3>Conte \($0)</h3><p>\(words)</p>" }.joined()
        let table = "<h2>TABLE</h2><p>Avant-propos</p><p>Conte 1<br>Conte 2<br>Conte 3</p><p>Conte 29<br>Conte 30</p>"
        let atTheEnd = GutenbergHTML.content(of: Array("<html><body><h2>Avant-propos</h2><p>\(words)</p>\(chapters)\(table)</body></html>".utf8))
        let ending = atTheEnd.content.blocks.map(\.text)
        XCTAssertFalse(ending.contains { $0 == "TABLE" || $0.hasPrefix("Conte 1\n") || $0.hasPrefix("Conte 29\n") }, "\(ending.suffix(4))")
        XCTAssertEqual(ending.filter { $0 == "Avant-propos" }.count, 1, "\(ending.suffix(4))")
        XCTAssertEqual(atTheEnd.content.sections.last?.title, "Conte 30")
        // The book's last thing, a list title over unlinked entries before
        // its linked table (ÍNDICE, `Ao leitor`, `Dedicatória`, then a
        // table of links to the chapters): all of it goes.
        let capitulos = (1...30).map { "<h4><a id=\"CAPITULO_\($0)\"></a>CAPITULO \($0)</h4><p>\(words)</p>" }.joined()
        let rows = (1...30).map { "<tr><td><a href=\"#CAPITULO_\($0)\">\($0)</a> &mdash;</td><td>Title \($0)</td></tr>" }.joined()
        let indice = "<h5><a name=\"INDICE\" id=\"INDICE\">ÍNDICE</a></h5><p>Ao leitor</p><p>Dedicatória</p><table>\(rows)</table>"
        let front = "<p><a href=\"#INDICE\">ÍNDICE</a></p><h4>Dedicatória</h4><p>Ao verme.</p><h4>AO LEITOR</h4><p>\(words)</p>"
        let remnant = GutenbergHTML.content(of: Array("<html><body>\(front)\(capitulos)<h4>FIM</h4>\(indice)</body></html>".utf8)).content
        XCTAssertEqual(remnant.blocks.last?.text, "FIM", "\(remnant.blocks.suffix(3).map(\.text))")
        let notAList = "<h2>TABLE</h2><p>Weights and measures<br>of the old kingdom</p>"
        let stays = GutenbergHTML.content(of: Array("<html><body>\(chapters)\(notAList)</body></html>".utf8)).content.blocks.map(\.text)
        XCTAssertTrue(stays.contains("Weights and measures\nof the old kingdom"), "\(stays.suffix(3))")
    }

    /// A contents list in groups (a heading each) goes with the heading
    /// above its first group's, an ornament between them, when what follows
    /// the list is a heading at that heading's level or the end; a book's
    /// title above its contents, followed by its chapters, stays. In a list
    /// its class calls the contents, an entry linked by its page number
    /// alone is an entry.
    func testAContentsListInGroupsGoesWithItsOwnHeading() {
        let words = String(repeating: "Words of the story run on here. ", count: 10)
        let stories = "<h2 id=\"a\">THE FIRST</h2><p>\(words)</p><h2 id=\"b\">THE SECOND</h2><p>\(words)</p>"
        let grouped = """
            <html><body><h2>INHOUD.</h2><h3>OP ZEE.</h3><table><tr><td><a href="#a">The first</a></td><td>3</td></tr></table>
            <h3>AAN WAL.</h3><table><tr><td><a href="#b">The second</a></td><td>9</td></tr></table>\(stories)</body></html>
            """
        let atTheEnd = """
            <html><body>\(stories)<h2>INDICE</h2><div class="figcenter"><img src="images/deco.jpg" alt=""></div><h3>Racconti</h3>
            <ul class="TOC"><li>The first<span class="tocright">pag. <a href="#a">5</a></span></li>
            <li>The second<span class="tocright">» <a href="#b">63</a></span></li></ul>
            <h2>Nota del Trascrittore</h2><p>Spelling kept as printed.</p></body></html>
            """
        for html in [grouped, atTheEnd] {
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            let texts = content.blocks.map(\.text)
            for heading in ["INHOUD.", "OP ZEE.", "AAN WAL.", "INDICE", "Racconti"] { XCTAssertFalse(texts.contains(heading), "\(texts)") }
            XCTAssertFalse(texts.contains { $0.hasPrefix("The first") }, "\(texts)")
            XCTAssertEqual(Array(content.sections.map(\.title).prefix(2)), ["THE FIRST", "THE SECOND"])
            XCTAssertEqual(GutenbergHTML.draft(of: Array(html.utf8)).outlined().origin, .contents)
        }
        let titled = "<html><body><h1>THE BOOK</h1><h2>CONTENTS</h2><p><a href=\"#a\">The first</a></p><p><a href=\"#b\">The second</a></p>\(stories)</body></html>"
        XCTAssertTrue(GutenbergHTML.content(of: Array(titled.utf8)).content.blocks.contains { $0.text == "THE BOOK" })
    }

    /// A note on a list between its title and the list (`[Transcriber's
    /// Note: illustrations were moved …]`) stays; the title goes with its
    /// list all the same, whether the list is a table or paragraphs.
    func testAListsTitleGoesThoughANoteStandsBetweenItAndTheList() {
        var generator = SeededGenerator(seed: 49)
        let words = String(repeating: "Words of the story run on here. ", count: 10)
        for _ in 0..<20 {
            let title = ["LIST OF ILLUSTRATIONS", "ILLUSTRATIONS.", "List of Plates", "CONTENTS"].randomElement(using: &generator)!
            let note = ["[Transcriber's Note: Illustrations were moved beside the relevant section of the text.]",
                        "Illustrations have been placed as close as practicable to their discussion in the text."].randomElement(using: &generator)!
            let tag = ["h2", "h3", "h4"].randomElement(using: &generator)!
            let entries = [("a", "The Borderland"), ("b", "The Harbour")]
            let list = Bool.random(using: &generator)
                ? "<table>" + entries.map { "<tr><td><a href=\"#\($0.0)\">\($0.1)</a></td><td>\(Int.random(in: 2...90, using: &generator))</td></tr>" }.joined() + "</table>"
                : entries.map { "<p><a href=\"#\($0.0)\">\($0.1)</a></p>" }.joined()
            let html = """
                <html><body><p>\(words)</p><\(tag)><a id="list"></a>\(title)</\(tag)><p>\(note)</p>\(list)
                <h2 id="a">THE BORDERLAND</h2><p>\(words)</p><h2 id="b">THE HARBOUR</h2><p>\(words)</p></body></html>
                """
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            let texts = content.blocks.map(\.text)
            XCTAssertFalse(texts.contains(title), "\(texts)")
            XCTAssertEqual(texts.filter { $0 == note }.count, 1, "\(texts)")
            XCTAssertFalse(texts.contains { $0.hasPrefix("The Borderland") }, "\(texts)")
            XCTAssertEqual(Array(content.sections.map(\.title).suffix(2)), ["THE BORDERLAND", "THE HARBOUR"], html)
        }
    }

    /// A link alone at the front to the contents at the end is the way
    /// to them: the contents' heading goes with its list all the same. A
    /// heading linked from a list too (a volume the contents name) stays.
    func testALinkAloneToTheContentsDoesNotKeepTheirHeading() {
        let words = String(repeating: "Words of the story run on here. ", count: 10)
        let stories = "<h2 id=\"a\">THE FIRST</h2><p>\(words)</p><h2 id=\"b\">THE SECOND</h2><p>\(words)</p>"
        let html = """
            <html><body><p class="center"><a href="#indice" id="front">INDICE</a></p>\(stories)
            <h2><a id="indice" href="#front">INDICE</a></h2><table><tr><td>I</td><td><a href="#a">The first</a></td></tr>
            <tr><td>II</td><td><a href="#b">The second</a></td></tr></table><h2>Nota del Trascrittore</h2><p>Kept as printed.</p></body></html>
            """
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertFalse(content.blocks.contains { $0.text.contains("INDICE") }, "\(content.blocks.map(\.text))")
        XCTAssertEqual(content.sections.map(\.title), ["THE FIRST", "THE SECOND"])
        let volumes = """
            <html><body><table><tr><td><a href="#v1">VOLUME I</a></td></tr><tr><td><a href="#v2">VOLUME II</a></td></tr></table>
            <h2 id="v1">VOLUME I</h2><table><tr><td><a href="#a">The first</a></td></tr><tr><td><a href="#v2">Go to volume II</a></td></tr></table>
            <h2 id="a">THE FIRST</h2><p>\(words)</p><p><a href="#v2">Go to volume II</a></p>
            <h2 id="v2">VOLUME II</h2><table><tr><td><a href="#b">The second</a></td></tr><tr><td><a href="#c">The third</a></td></tr></table>
            <h2 id="b">THE SECOND</h2><p>\(words)</p><h2 id="c">THE THIRD</h2><p>\(words)</p></body></html>
            """
        let volumeBlocks = GutenbergHTML.content(of: Array(volumes.utf8)).content.blocks.map(\.text)
        XCTAssertTrue(volumeBlocks.contains("VOLUME II"), "\(volumeBlocks)")
    }

    /// An edition of the 2000s: the contents one paragraph, each entry a
    /// link and its chapter's summary under it, a blank line between; the
    /// chapters' headings in paragraphs of their own, a picture before
    /// each. The contents go whole; the paragraphs they point to that read
    /// as their entries are the chapters; a picture's caption is none.
    func testChaptersInParagraphsAreFoundByTheContentsThatPointToThem() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        var contents = "<h2>CONTENTS.</h2><p>"
        var body = ""
        for number in ["I", "II", "III", "IV"] {
            contents += "<a href=\"#c\(number)\">CHAPTER \(number).</a><br /> Huck and the Judge.&mdash;Superstition.&mdash;Civilizing Huck.&mdash;Miss Watson.&mdash;Tom Sawyer Waits.<br /> <br /> "
            body += "<p><a name=\"c\(number)\"></a></p><div class=\"fig\"><img src=\"images/c\(number).jpg\" alt=\"c\(number).jpg (72K)\"></div>"
                + "<p>CHAPTER \(number).</p><p>\(words)</p>"
        }
        contents += "</p><h2>ILLUSTRATIONS.</h2><p><a href=\"#pic\">The Widow</a></p>"
        body += "<div class=\"fig\"><a name=\"pic\"></a><img src=\"images/w.jpg\" alt=\"\"></div><p>The Widow</p><p>\(words)</p>"
        let html = "<html><body>\(contents)\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I.", "CHAPTER II.", "CHAPTER III.", "CHAPTER IV."])
        XCTAssertFalse(content.blocks.contains { $0.text.contains("Superstition") || $0.text == "CONTENTS." }, "\(content.blocks.map(\.text))")
    }

    /// Where the book's contents list names the sections, its nesting (a
    /// list in a list, `toc2` under `toc1`) or else its words (PART above
    /// CHAPTER) give the levels, whatever tags the headings are in; a
    /// preface and an epilogue stand beside the parts.
    func testTheContentsListGivesTheLevelsWhateverTheTags() {
        let words = String(repeating: "Words of the section run on here. ", count: 4)
        let entries = [
            (0, "pre", "Preface", 1), (0, "p1", "PART I. The Start", 3), (1, "c1", "CHAPTER I. One", 2), (1, "c2", "CHAPTER II. Two", 2),
            (0, "p2", "PART II. The End", 3), (1, "c3", "CHAPTER III. Three", 2), (0, "epi", "Epilogue", 4),
        ]
        let expected = entries.map { "\($0.0) \($0.2)" }
        var body = ""
        for (_, id, title, tag) in entries { body += "<h\(tag) id=\"\(id)\">\(title)</h\(tag)><p>\(words)</p>" }
        var nested = "<ul>"
        for (index, entry) in entries.enumerated() {
            if entry.0 == 1 && entries[index - 1].0 == 0 { nested += "<ul>" }
            nested += "<li><a href=\"#\(entry.1)\">\(entry.2)</a>"
            if entry.0 == 1 && (index + 1 == entries.count || entries[index + 1].0 == 0) { nested += "</li></ul>" }
            nested += "</li>"
        }
        nested += "</ul>"
        let classed = entries.map { "<p class=\"toc\($0.0 + 1)\"><a href=\"#\($0.1)\">\($0.2)</a></p>" }.joined()
        let flat = entries.map { "<p><a href=\"#\($0.1)\">\($0.2)</a></p>" }.joined()
        for (name, contents) in [("nested lists", nested), ("classes", classed), ("words", flat)] {
            let html = "<html><body><h1>THE BOOK</h1><h2>CONTENTS</h2>\(contents)\(body)</body></html>"
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, expected, name)
            XCTAssertFalse(content.blocks.contains { $0.text == "CONTENTS" }, name)
            XCTAssertEqual(GutenbergHTML.draft(of: Array(html.utf8)).outlined().origin, .contents, name)
        }
        let unlisted = "<html><body><h1>THE BOOK</h1>\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.draft(of: Array(unlisted.utf8)).outlined().origin, .headings)
    }

    /// A contents table indents a row by leaving its first cells empty:
    /// the row is as deep as its link stands right of the leftmost row's.
    /// A number in a row's first cell is no indent of the rows without one.
    func testAContentsTableIndentsByEmptyLeadingCells() {
        let words = "<p>" + String(repeating: "Words of the section run on here. ", count: 4) + "</p>"
        var rows = "", body = ""
        for chapter in 1...2 {
            rows += "<tr><td class=\"num\"></td><td colspan=\"3\"><a href=\"#c\(chapter)\">Hoofdstuk \(chapter).</a></td><td><a href=\"#c\(chapter)\">\(chapter)</a></td></tr>"
            body += "<div id=\"c\(chapter)\"><h2>Hoofdstuk \(chapter).</h2></div>"
            for part in ["I.", "II."] {
                rows += "<tr><td></td><td></td><td colspan=\"2\"><a href=\"#c\(chapter)\(part)\">\(part)</a></td><td>7</td></tr>"
                body += "<h3 id=\"c\(chapter)\(part)\">\(part)</h3>\(words)"
            }
        }
        let indented = "<html><body><h1>THE BOOK</h1>\(body)<h2>Inhoud</h2><table>\(rows)</table></body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(indented.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 Hoofdstuk 1.", "1 I.", "1 II.", "0 Hoofdstuk 2.", "1 I.", "1 II."])
        let numbered = "<tr><td></td><td><a href=\"#pre\">Preface</a></td></tr>"
            + (1...3).map { "<tr><td>\($0).</td><td><a href=\"#c\($0)\">The \($0) Title</a></td></tr>" }.joined()
        let chapters = "<h2 id=\"pre\">Preface</h2>\(words)" + (1...3).map { "<h2 id=\"c\($0)\">The \($0) Title</h2>\(words)" }.joined()
        let flat = "<html><body><h1>THE BOOK</h1><table>\(numbered)</table>\(chapters)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(flat.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 Preface", "0 The 1 Title", "0 The 2 Title", "0 The 3 Title"])
    }

    /// A contents table's row whose cell's class says indented (`inset`)
    /// stands under the row above it, though a table's rows are read
    /// together.
    func testAContentsRowsClassIndentsIt() {
        let words = "<p>" + String(repeating: "Words of the section run on here. ", count: 4) + "</p>"
        var rows = "", body = ""
        for degree in ["FIRST", "SECOND"] {
            rows += "<tr><td><a href=\"#\(degree)\">\(degree) DEGREE</a></td><td>7</td></tr>"
            body += "<h4 id=\"\(degree)\">\(degree) DEGREE.</h4>"
            for part in ["PREPARATION", "INITIATION"] {
                rows += "<tr><td class=\"inset\"><a href=\"#\(degree)\(part)\">\(part)</a></td><td>9</td></tr>"
                body += "<h5 id=\"\(degree)\(part)\">\(part).</h5>\(words)"
            }
        }
        let html = "<html><body><h1>THE BOOK</h1><h2>CONTENTS</h2><table>\(rows)</table>\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 FIRST DEGREE.", "1 PREPARATION.", "1 INITIATION.", "0 SECOND DEGREE.", "1 PREPARATION.", "1 INITIATION."])
    }

    /// An entry's link that is a numeral alone (`I.` beside `Vancouver`)
    /// numbers the heading it points to, which says no number: those
    /// headings stand beside the chapters. A page's number does not.
    func testAContentsEntrysNumeralNumbersItsHeading() {
        let words = "<p>" + String(repeating: "Words of the section run on here. ", count: 4) + "</p>"
        let chapters = (1...3).map { "<tr><td><a href=\"#ch\($0)\">CHAPTER \($0)</a></td><td>Its Title</td></tr>" }.joined()
        let notes = ["I.", "II.", "III."].enumerated().map { "<tr><td><a href=\"#note\($0.offset)\">\($0.element)</a></td><td>A Place</td></tr>" }.joined()
        let body = (1...3).map { "<h2 id=\"ch\($0)\">CHAPTER \($0).</h2>\(words)" }.joined()
            + "<h2>HISTORICAL NOTES.</h2>" + (0..<3).map { "<h3 id=\"note\($0)\">PLACE \($0).</h3>\(words)" }.joined()
        let numbered = "<html><body><h1>THE BOOK</h1><table>\(chapters)</table><h2>NOTES</h2><table>\(notes)</table>\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(numbered.utf8)).content.sections.map(\.level), [0, 0, 0, 0, 0, 0])
        let paged = numbered.replacingOccurrences(of: "#note", with: "#page").replacingOccurrences(of: "id=\"note", with: "id=\"page")
            .replacingOccurrences(of: ">I.<", with: ">31<").replacingOccurrences(of: ">II.<", with: ">32<").replacingOccurrences(of: ">III.<", with: ">33<")
        XCTAssertEqual(GutenbergHTML.content(of: Array(paged.utf8)).content.sections.map(\.level), [0, 0, 0, 1, 1, 1],
                       "page numbers number nothing: a run of unnumbered entries after a chapter is its parts")
    }

    /// A whole contents list in one paragraph, a line an entry, each line
    /// beginning with its link and going on with the chapter's title, goes
    /// whole with its heading, and names the sections.
    func testAContentsListInOneParagraphGoesWhole() {
        let words = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 4) + "</p>"
        let titles = ["The Bertolini", "In Santa Croce with No Baedeker"] + (3...12).map { "Where the \($0) Chapter Goes On at Some Length" }
        var lines = "<br /> <a href=\"#part1\"><b>Part One:</b></a>&nbsp;&nbsp; <br /><br />", body = "<h1 id=\"part1\">PART ONE</h1>"
        for (index, title) in titles.enumerated() {
            lines += "<a href=\"#ch\(index + 1)\"> Chapter \(index + 1): </a>&nbsp;&nbsp;\(title) <br /><br />"
            body += "<h2 id=\"ch\(index + 1)\">Chapter \(index + 1): \(title)</h2>\(words)"
        }
        let html = "<html><body><h1>A ROOM</h1><h2>By Someone</h2><p class=\"toc\"><b>CONTENTS</b></p><p>\(lines)</p>\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, ["0 PART ONE"] + titles.enumerated().map { "1 Chapter \($0.offset + 1): \($0.element)" })
        XCTAssertFalse(content.blocks.contains { $0.text.contains("CONTENTS") }, "\(content.blocks.map(\.text))")
        XCTAssertEqual(content.blocks.filter { $0.text.contains("Bertolini") }.count, 1, "the heading alone")
    }

    /// A heading of a number alone (`7`) numbers a chapter, named by the
    /// heading after it past a picture, whatever tag its part is in.
    func testANumberAloneInAHeadingNumbersAChapter() {
        let words = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 4) + "</p>"
        let picture = "<div class=\"fig\"><img src=\"images/0029m.jpg\" alt=\"0029m \" /></div>"
        var contents = "", body = "", expected: [String] = []
        for (part, tag, chapters) in [("PART ONE—The Old Buccaneer", 1, 1...3), ("PART TWO—The Sea-cook", 2, 4...6)] {
            contents += "<a href=\"#p\(tag)\"><b>\(part)</b></a><br />"
            body += "<h\(tag) id=\"p\(tag)\">\(part)</h\(tag)>"
            expected.append("0 \(part)")
            for chapter in chapters {
                contents += "<a href=\"#c\(chapter)\"> \(chapter). The \(chapter) Title </a><br />"
                body += "<p><a id=\"c\(chapter)\"></a></p><h2>\(chapter)</h2>\(picture)<h3>The \(chapter) Title</h3>\(words)"
                expected.append("1 \(chapter). The \(chapter) Title")
            }
        }
        let html = "<html><body><h1>TREASURE ISLAND</h1><p>\(contents)</p>\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }, expected)
    }

    /// Listed headings without a number or words of their own, each
    /// straight before a numbered one, hold what follows them (INFERNO
    /// above its cantos); one alone is the book's title, no division.
    func testUnnumberedHeadingsWithoutWordsHoldTheNumberedOnesAfterThem() {
        let words = "<p>" + String(repeating: "Nel mezzo del cammin di nostra vita. ", count: 4) + "</p>"
        func book(_ divisions: [String]) -> String {
            var contents = "", body = ""
            for (number, division) in divisions.enumerated() {
                contents += "<tr><td><a href=\"#d\(number)\"><b>\(division)</b></a></td></tr>"
                body += "<div class=\"chapter\"><h2><a name=\"d\(number)\"></a>\(division)</h2></div>"
                for canto in ["I", "II"] {
                    contents += "<tr><td><a href=\"#c\(number)\(canto)\">Canto \(canto).</a></td></tr>"
                    body += "<h3><a name=\"c\(number)\(canto)\"></a>\(division.capitalized)<br />Canto \(canto)</h3>\(words)"
                }
            }
            return "<html><body><h1>LA DIVINA COMMEDIA</h1><h2>Contents</h2><table>\(contents)</table>\(body)</body></html>"
        }
        XCTAssertEqual(GutenbergHTML.content(of: Array(book(["INFERNO", "PURGATORIO"]).utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 INFERNO", "1 Inferno. Canto I", "1 Inferno. Canto II", "0 PURGATORIO", "1 Purgatorio. Canto I", "1 Purgatorio. Canto II"])
        XCTAssertEqual(GutenbergHTML.content(of: Array(book(["IVANHOE."]).utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 Ivanhoe. Canto I", "0 Ivanhoe. Canto II"])
    }

    /// A contents entry's text after its links gives a page when it ends
    /// in figures or a small roman numeral standing alone.
    func testAPageNumberEndsAnEntrysText() {
        func endsWithPage(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer { HTMLBlocks.endsWithPageNumber($0) } }
        for paged in ["9", " pag. 9.", "… 123 ", "xiv", "Preface, vii", "»\u{a0}63"] { XCTAssertTrue(endsWithPage(paged), paged) }
        for unpaged in ["", " . ", "il", "Ballata di commiato", "ici", "Chapter12", "XIV", "mix it"] { XCTAssertFalse(endsWithPage(unpaged), unpaged) }
    }

    /// A heading that numbers its title in one line (`II. Schluss.`) is
    /// a chapter as one set over two lines is (`I.` / `Die Literatur`):
    /// the lettered parts before it stay its predecessor's.
    func testANumeralBeforeATitleInOneHeadingNumbersAChapter() {
        let words = "<p>" + String(repeating: "Der Traum ist die Erfüllung eines Wunsches. ", count: 4) + "</p>"
        let entries = [("I", "<h2>I.<br/>Die Literatur.</h2>"), ("I_a", "<h3>a) Beziehung.</h3>"), ("I_b", "<h3>b) Traummaterial.</h3>"),
                       ("I_c", "<h3>c) Traumreize.</h3>"), ("II", "<h2>II. Schluss.</h2>")]
        // The entries' links say the titles alone, no numbers.
        let contents = entries.map { "<p><a href=\"#\($0.0)\">\($0.1.split(separator: ">")[1].prefix { $0 != "<" })</a></p>" }.joined()
        let body = entries.map { "<p><a name=\"\($0.0)\"></a></p>\($0.1)\(words)" }.joined()
        let html = "<html><body><h1>DIE TRAUMDEUTUNG</h1>\(contents)\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 I. Die Literatur.", "1 a) Beziehung.", "1 b) Traummaterial.", "1 c) Traumreize.", "0 II. Schluss."])
    }

    /// A chapter's heading that is mostly its number's link on to its
    /// vocabulary is no contents entry when the contents list points to
    /// it: it stays, a section with its words.
    func testAHeadingTheContentsPointsToIsNoEntryThoughItLinksOn() {
        let words = "<p>" + String(repeating: "Marie rentre avec Alice dans la maison. ", count: 4) + "</p>"
        let chapters = [("XXXVII", "Fleurs de Printemps."), ("XXXVIII", "Ce méchant Paul."), ("XXXIX", "Paul.")]
        let contents = chapters.enumerated().map { "<tr><td><a href=\"#chap_\($0.offset)\">\($0.element.0)</a>.</td><td>\($0.element.1)</td></tr>" }
        let body = chapters.enumerated().map { "<h2 id=\"chap_\($0.offset)\"><a href=\"#voc_\($0.offset)\">\($0.element.0)</a>. \($0.element.1)</h2>\(words)" }
        let vocabulary = chapters.enumerated().map { "<h3 id=\"voc_\($0.offset)\"><a href=\"#chap_\($0.offset)\">\($0.element.0)</a>.</h3>\(words)" }
        let html = "<html><body><h1>PREMIÈRE ANNÉE</h1><table>\(contents.joined())</table>\(body.joined())<h2>MOTS ET EXPRESSIONS</h2>"
            + "\(vocabulary.joined())</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(Array(content.sections.map(\.title).prefix(3)), chapters.map { "\($0.0). \($0.1)" })
    }

    /// A contents list in one `div.toc`, each part's chapters in a nested
    /// `div.toc2`: a part after a nested list stands where the first part
    /// does, not beside the chapters, though every heading is an `h2`.
    func testAPartAfterANestedListStandsBesideTheFirstPart() {
        let words = "<p>" + String(repeating: "Stately, plump Buck Mulligan came from the stairhead. ", count: 4) + "</p>"
        var contents = "", body = "", expected: [String] = []
        for (part, chapters) in [("I", 1...2), ("II", 3...4), ("III", 5...6)] {
            contents += "<a href=\"#part\(part)\"><big><b>&mdash; \(part) &mdash;</b></big></a><br /><br /><div class=\"toc2\">"
                + chapters.map { "<a href=\"#ch\($0)\"> [ \($0) ] </a><br />" }.joined() + "</div>"
            body += "<p><a id=\"part\(part)\"></a></p><h2>&mdash; \(part) &mdash;</h2>"
                + chapters.map { "<p><a id=\"ch\($0)\"></a></p><h2>[ \($0) ]</h2>\(words)" }.joined()
            expected += ["0 — \(part) —"] + chapters.map { "1 [ \($0) ]" }
        }
        let html = "<html><body><h1>ULYSSES</h1><h2>Contents</h2><table><tr><td><div class=\"toc\">\(contents)</div></td></tr></table>"
            + "\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }, expected)
    }

    /// In a contents list that gives pages, entries that give none, each
    /// straight before one that does, are parts holding the poems after
    /// them, though every heading shares one tag and says no number; an
    /// epilogue among them holds its poem, and a prologue stands beside
    /// them. A page's number in text (`pag. 9`) or as a link gives a page.
    func testEntriesGivingNoPageHoldThePagedOnesAfterThem() {
        let motto = "<p>E su tal corda l’anima sospira.</p>"
        let poem = "<p>" + String(repeating: "Lino ai boschi de l’isola di Creta udía le ninfe. ", count: 4) + "</p>"
        let parts = [("PROLOGO", ["PROLOGO"]), ("SONETTI DELLE FATE", ["ELIANA", "MIRINDA"]), ("SONETTI D’EBE", ["IL FIUME", "IL CANTO"]),
                     ("EPILOGO", ["A F. P. MICHETTI"])]
        func book(pageCell: (Int) -> String) -> String {
            var rows = "", body = "", page = 9
            for (number, (part, poems)) in parts.enumerated() {
                if part != "PROLOGO" {
                    rows += "<tr><td colspan=\"3\"><a href=\"#part\(number)\">\(part.capitalized)</a></td></tr>"
                    body += "<h2 id=\"part\(number)\">\(part)</h2>\(motto)"
                }
                for title in poems {
                    page += 2
                    rows += "<tr><td><a href=\"#poem\(page)\">\(title.capitalized)</a></td><td>\(pageCell(page))</td></tr>"
                    body += "<p><a id=\"Page_\(page)\"></a></p><h2 id=\"poem\(page)\">\(title)</h2>\(poem)"
                }
            }
            return "<html><body><h1>ISOTTÈO</h1>\(body)<h2>INDICE</h2><table>\(rows)</table></body></html>"
        }
        let expected = ["0 PROLOGO", "0 SONETTI DELLE FATE", "1 ELIANA", "1 MIRINDA", "0 SONETTI D’EBE", "1 IL FIUME", "1 IL CANTO",
                        "0 EPILOGO", "1 A F. P. MICHETTI"]
        for (name, cell) in [("a link", { (page: Int) in "<a href=\"#Page_\(page)\">\(page)</a>" }), ("text", { "pag. \($0)" })] {
            XCTAssertEqual(GutenbergHTML.content(of: Array(book(pageCell: cell).utf8)).content.sections.map { "\($0.level) \($0.title)" },
                           expected, name)
        }
        let unpaged = book { _ in "" }
        XCTAssertEqual(GutenbergHTML.content(of: Array(unpaged.utf8)).content.sections.map(\.level), Array(repeating: 0, count: expected.count))
    }

    /// A contents list that sets some entries in bold and the rest in plain
    /// type sets the parts that hold the rest so (a collection's series
    /// above their poems), however the markup nests the bold and the link;
    /// a list all in bold says nothing of levels.
    func testBoldEntriesHoldThePlainOnesAfterThem() {
        let verse = "<pre>" + String(repeating: "What are the bugles blowin' for? said Files-on-Parade.\n", count: 4) + "</pre>"
        let series = [("First Series (1892)", ["Danny Deever", "Tommy"]), ("Second Series (1896)", ["Bobs", "Sappers"])]
        func book(bold: (String) -> String, plain: (String) -> String) -> String {
            var contents = "", body = "", number = 0
            for (title, poems) in series {
                number += 1
                contents += "<p class=\"toc\">\(bold("<a href=\"#s\(number)\">\(title)</a>"))</p>"
                body += "<p><a id=\"s\(number)\"></a></p><h2>\(title)</h2>"
                for poem in poems {
                    number += 1
                    contents += "<p class=\"toc\">\(plain("<a href=\"#s\(number)\">\(poem)</a>"))</p>"
                    body += "<p><a id=\"s\(number)\"></a></p><h2>\(poem)</h2>\(verse)"
                }
            }
            return "<html><body><h1>BARRACK-ROOM BALLADS</h1><p class=\"toc\"><b>CONTENTS</b></p>\(contents)\(body)</body></html>"
        }
        let expected = ["0 First Series (1892)", "1 Danny Deever", "1 Tommy", "0 Second Series (1896)", "1 Bobs", "1 Sappers"]
        let inside = book(bold: { $0.replacingOccurrences(of: "\">", with: "\"><b>").replacingOccurrences(of: "</a>", with: "</b></a>") }, plain: { $0 })
        let around = book(bold: { "<strong>\($0)</strong>" }, plain: { $0 })
        for (name, html) in [("bold inside the link", inside), ("bold around it", around)] {
            XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }, expected, name)
        }
        let allBold = book(bold: { "<b>\($0)</b>" }, plain: { "<b>\($0)</b>" })
        XCTAssertEqual(GutenbergHTML.content(of: Array(allBold.utf8)).content.sections.map(\.title), ["Danny Deever", "Tommy", "Bobs", "Sappers"])
    }

    /// An index's alphabet and its way back to the top name no sections;
    /// a chapter's numeral that is a letter (`I`) still names its chapter.
    func testAnAlphabetAndAWayToTheTopAreNoContentsEntries() {
        let prose = "<p>" + String(repeating: "The fox came down the hill to the river in the evening. ", count: 10) + "</p>"
        let fables = ["The Ant and the Dove", "The Bald Knight", "The Eagle and the Kite"]
        var contents = "<p class=\"toc\"><a href=\"#c1\">I</a> THE FOX</p><p class=\"toc\"><a href=\"#c2\">II</a> THE CROW</p>"
        contents += "<p class=\"toc\"><a href=\"#c3\">III</a> THE WOLF</p>"
        var body = ""
        for (number, title) in ["THE FOX", "THE CROW", "THE WOLF"].enumerated() {
            body += "<h2 id=\"c\(number + 1)\">CHAPTER \(String(repeating: "I", count: number + 1)).</h2><h3>\(title)</h3>\(prose)"
        }
        contents += "<p class=\"toc\"><a href=\"#f0\">FABLES</a></p>"
        body += "<h2 id=\"f0\">FABLES</h2>\(prose)"
        for (number, fable) in fables.enumerated() { body += "<h3 id=\"f\(number + 1)\">\(fable)</h3>\(prose)" }
        let alphabet = ["A", "B", "E"].enumerated().map { "<a href=\"#f\($0.offset + 1)\">\($0.element)</a>" }.joined(separator: " ")
        let html = "<html><body><a id=\"top\"></a><h1>FABLES AND TALES</h1><blockquote><p><b>CONTENTS</b></p>\(contents)</blockquote>"
            + "\(body)<p>\(alphabet)</p><p><a href=\"#top\">Goto Top</a></p></body></html>"
        let outline = GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }
        XCTAssertEqual(outline, ["0 CHAPTER I. THE FOX", "0 CHAPTER II. THE CROW", "0 CHAPTER III. THE WOLF", "0 FABLES"])
    }

    /// A contents link to an anchor before a poem's motto opens the
    /// section of the heading after the motto, when it reads as the entry.
    func testAnEntryPointingAtAMottoNamesTheHeadingAfterIt() {
        let verse = "<pre>" + String(repeating: "April is the cruellest month, breeding lilacs out of the dead land,\n", count: 6) + "</pre>"
        let motto = "<pre>Nam Sibyllam quidem Cumis ego ipse oculis meis vidi.\n   For Ezra Pound</pre>"
        let parts = ["I. THE BURIAL OF THE DEAD", "II. A GAME OF CHESS", "III. THE FIRE SERMON"]
        var contents = "", body = ""
        for (number, title) in parts.enumerated() {
            contents += "<p class=\"toc\"><a href=\"#part\(number)\">\(title)</a></p>"
            body += "<p><a id=\"part\(number)\"></a></p>\(number == 0 ? motto : "")<h2>\(title)</h2>\(verse)"
        }
        let html = "<html><body><h1>THE WASTE LAND</h1><h3>CONTENTS</h3>\(contents)\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.title), parts)
        let unlike = html.replacingOccurrences(of: "<h2>I. THE BURIAL OF THE DEAD</h2>", with: "<h2>I. APRIL</h2>")
        XCTAssertEqual(GutenbergHTML.content(of: Array(unlike.utf8)).content.sections.map(\.title), Array(parts.dropFirst()))
    }

    /// A contents table whose groups are headings in its rows (SONGS OF
    /// INNOCENCE, SONGS OF EXPERIENCE) names every section it links to,
    /// and goes whole, those headings and its own with it.
    func testAContentsTableWithHeadingsInItsRowsNamesEverySection() {
        let verse = "<p>" + String(repeating: "Piping down the valleys wild, piping songs of pleasant glee. ", count: 4) + "</p>"
        let groups = [("SONGS OF INNOCENCE", ["THE SHEPHERD", "THE LAMB"]), ("SONGS OF EXPERIENCE", ["THE TIGER", "LONDON"])]
        var rows = "", body = "", page = 0
        for (group, poems) in groups {
            rows += "<tr><td colspan=\"2\"><h3>\(group)</h3></td></tr>"
            for (index, poem) in poems.enumerated() {
                page += 1
                rows += "<tr><td><p>\(poem.capitalized)</p></td><td><a href=\"#page\(page)\">\(page)</a></td></tr>"
                body += index == 0 ? "<h2><a name=\"page\(page)\"></a>\(group)</h2><h3>\(poem)</h3>\(verse)"
                    : "<h3><a name=\"page\(page)\"></a>\(poem)</h3>\(verse)"
            }
        }
        let html = "<html><body><h1>SONGS</h1><h2>CONTENTS</h2><table>\(rows)</table>\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["SONGS OF INNOCENCE", "THE LAMB", "SONGS OF EXPERIENCE", "LONDON"])
        XCTAssertEqual(content.blocks.filter { $0.text == "CONTENTS" || $0.text == "Lamb" || $0.text.hasPrefix("The Lamb") }.count, 0)
        XCTAssertEqual(content.blocks.filter { $0.text == "SONGS OF INNOCENCE" }.count, 1, "the group's heading in the table goes")
    }

    /// An edition that sets its sections in no heading, its contents a
    /// table of titles and page numbers linking to anchors mid-paragraph:
    /// each entry opens its section at its anchor's paragraph under the
    /// entry's own words, and no word is added to the text.
    func testEntriesWithoutHeadingsOpenTheirSectionsUnderTheirOwnWords() {
        let parts = ["The Coming of the Ship", "On Love", "On Marriage"]
        var rows = "", body = ""
        for (index, title) in parts.enumerated() {
            let page = 7 + index * 8
            rows += "<tr><td>\(title)</td><td><a href=\"#link\(page)\">\(page)</a></td></tr>"
            body += "<hr /><p>And he answered,</p><p>People of Orphalese, of what can I <span class=\"pagenum\">\(page)</span>"
                + "<a name=\"link\(page)\" id=\"link\(page)\"></a>speak save of that which is even now moving within your souls?</p>"
                + "<p>" + String(repeating: "Love gives naught but itself and takes naught but from itself. ", count: 5) + "</p>"
        }
        let html = "<html><body><h1>THE PROPHET</h1><h2>CONTENTS</h2><table>\(rows)</table>\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), parts)
        for section in content.sections {
            XCTAssertTrue(content.blocks[section.firstBlock].text.hasPrefix("People of Orphalese"), "\(content.blocks[section.firstBlock])")
            XCTAssertEqual(content.blocks[section.firstBlock].kind, .prose)
        }
        XCTAssertFalse(content.blocks.contains { $0.text.contains("Marriage") }, "the entries' words stay titles, not text")
    }

    /// A history's contents, a table whose cells each hold a book's link
    /// and its chapters' numbers (`BOOK IX`, then `1` to `46`), each
    /// number linking to its chapter's place mid-text: each number opens
    /// its chapter, under its book, named by itself and not by its cell.
    func testChapterNumbersAloneOpenTheirChaptersUnderTheirBook() {
        let words = "<p>" + String(repeating: "The Samnites had as their commander that year Caius Pontius. ", count: 6) + "</p>"
        let books = [("book9", "BOOK IX", "a", 3), ("book10", "BOOK X", "b", 2)]
        var cells = "", body = "", expected: [String] = []
        for (anchor, title, prefix, chapters) in books {
            cells += "<td><a href=\"#\(anchor)\"><b>\(title)</b></a><br />"
                + (1...chapters).map { "<a href=\"#\(prefix)\($0)\">\($0)</a>" }.joined(separator: " ") + "</td>"
            body += "<h2 id=\"\(anchor)\">\(title).</h2><p><i>The argument of the book, its wars and its consuls.</i></p>"
            expected.append("0 \(title).")
            for chapter in 1...chapters {
                body += "<div class=\"lsidenote\">\(chapter) </div><a id=\"\(prefix)\(chapter)\" />\(words)"
                expected.append("1 \(chapter)")
            }
        }
        let html = "<html><body><h1>THE HISTORY OF ROME</h1><table><tr>\(cells)</tr></table>\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, expected)
        for section in content.sections where section.level == 1 {
            XCTAssertTrue(content.blocks[section.firstBlock].text.hasPrefix("The Samnites"), "\(content.blocks[section.firstBlock])")
        }
    }

    /// An encyclopaedia's articles, each a paragraph opening with its
    /// anchor in bold, the contents two columns of links: an article of
    /// one paragraph is a section as a longer one is, its words its own;
    /// its cross-references, all to the edition's one word on articles in
    /// other volumes, are its text, no contents.
    func testAnArticleOfOneParagraphIsASection() {
        var generator = SeededGenerator(seed: 62)
        let titles = ["ISABNORMAL LINES", "ISAEUS", "ISANDHLWANA", "ISAR", "ISATIN", "ISAURIA", "ISCHL", "ISEO, LAKE OF"]
        var rows = "", body = ""
        for row in 0..<(titles.count / 2) {
            rows += "<tr>" + [row, row + titles.count / 2].map { "<td><a href=\"#ar\($0)\">\(titles[$0])</a></td>" }.joined() + "</tr>"
        }
        for (index, title) in titles.enumerated() {
            let sentence = "The article on \(title.lowercased()) runs on for a while here. "
            body += "<hr class=\"art\" /><p><span class=\"bold\">\(title),<a name=\"ar\(index)\" id=\"ar\(index)\"></a></span> "
                + String(repeating: sentence, count: Int.random(in: 2...8, using: &generator)) + "</p>"
            for _ in 0..<Int.random(in: 0...2, using: &generator) { body += "<p>" + String(repeating: sentence, count: 4) + "</p>" }
            if index == 3 { body += "<p>Cf. " + ["Astarte", "Atargatis", "Great Mother of the Gods"].map { "<a href=\"#artlinks\">\($0)</a>" }.joined(separator: ", ") + ".</p>" }
        }
        let note = "<p>Transcriber’s note: <a name=\"artlinks\">Links to other EB articles:</a> will be made available later.</p>"
        let html = "<html><body><h2>VOLUME XIV SLICE VIII</h2>\(note)<p>Articles in This Slice</p><table>\(rows)</table>\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), titles, html)
        XCTAssertEqual(content.blocks.filter { $0.text.hasPrefix("Cf.") }.map(\.text), ["Cf. Astarte, Atargatis, Great Mother of the Gods."])
        for (section, title) in zip(content.sections, titles) {
            // The paragraph stays a paragraph: the entry's words name it.
            XCTAssertTrue(content.blocks[section.firstBlock].text.hasPrefix(title + ","), "\(content.blocks[section.firstBlock])")
            XCTAssertEqual(content.blocks[section.firstBlock].kind, .prose)
        }
    }

    /// A list of illustrations goes with its title even where the
    /// contents links to that title.
    func testAListsTitleGoesWithItWhereTheContentsLinksToIt() {
        let words = "<p>" + String(repeating: "The steamer Quaker City sailed at last, far, far at sea. ", count: 6) + "</p>"
        let html = """
            <html><body><h2>CONTENTS</h2><h3><a href="#ILLUSTRATIONS">LIST OF ILLUSTRATIONS</a></h3>
            <h3><a href="#ch1">CHAPTER I.</a></h3><h3><a href="#ch2">CHAPTER II.</a></h3>
            <h2><a id="ILLUSTRATIONS"></a>LIST OF ILLUSTRATIONS</h2>
            <p><a href="#p1">1. THE QUAKER CITY IN A STORM</a><br /><a href="#p2">2. THE START</a></p>
            <h2><a id="ch1"></a>CHAPTER I.</h2><p><a id="p1"></a></p><img src="i1.png" alt="The Quaker City in a storm" />\(words)
            <h2><a id="ch2"></a>CHAPTER II.</h2><p><a id="p2"></a></p><img src="i2.png" alt="The start" />\(words)
            </body></html>
            """
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I.", "CHAPTER II."])
        XCTAssertFalse(content.blocks.contains { $0.text.contains("LIST OF ILLUSTRATIONS") || $0.text.contains("STORM") }, "\(content.blocks)")
    }

    /// Where an edition sets its headings in no heading tag, a paragraph
    /// that says a contents entry's words at its anchor (`FOREWORD`,
    /// `NOTES`) opens its section; a picture's caption that its list
    /// names does not, and the lists' titles in paragraphs (`THE TABLE OF
    /// CONTENTS`, `A LIST OF ILLUSTRATIONS`) go with their lists.
    func testAParagraphSayingAnEntrysWordsOpensItsSection() {
        let words = "<p>" + String(repeating: "A rich merchant lived in a town in holy Russia with his wife. ", count: 6) + "</p>"
        let html = """
            <html><body><p><a name="FOREWORD">FOREWORD</a></p>\(words)
            <p align="center">THE TABLE OF CONTENTS</p>
            <p><i><a href="#FOREWORD">Foreword</a></i></p><p><i><a href="#ILLUSTRATIONS">A List of Illustrations</a></i></p>
            <p><a href="#frog-title">The Tsarevna Frog</a></p><p><a href="#simeons">Seven Simeons</a></p>
            <p><i><a href="#NOTES">Notes</a></i></p>
            <p align="center"><a name="ILLUSTRATIONS">A LIST OF ILLUSTRATIONS</a></p>
            <p><a href="#frog">The Tsarevna Frog</a></p><p><a href="#ivan">Ivan learns the language of the birds</a></p>
            <h2><a name="frog-title">THE TSAREVNA FROG</a></h2>\(words)
            <p><a name="frog"><img src="009.png" alt="" /></a></p><p>The Tsarevna Frog</p>\(words)
            <h2><a name="simeons">SEVEN SIMEONS</a></h2>\(words)
            <p><img src="064.png" alt="Ivan" /></p><p><a name="ivan">Ivan learns the language of the birds</a></p>\(words)
            <p><a name="NOTES">NOTES</a></p><p>1. A <i>tsarstvo</i> is the domain of a <i>tsar</i>.</p></body></html>
            """
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["FOREWORD", "THE TSAREVNA FROG", "SEVEN SIMEONS", "NOTES"])
        XCTAssertFalse(content.blocks.contains { $0.text.contains("LIST OF") || $0.text.contains("TABLE OF") || $0.text.contains("Notes") },
                       "\(content.blocks)")
    }

    /// A picture in a figure stands before the text set under it there,
    /// and a paragraph that says its alternative text again is its
    /// caption, said once; a caption set apart (`figcaption`) is its text.
    func testAFiguresPictureStandsBeforeTheTextUnderIt() {
        let words = "<p>" + String(repeating: "Some time after this the son went hunting in a forest. ", count: 6) + "</p>"
        let html = """
            <html><body><h2>CHAPTER I.</h2>\(words)
            <div class="figcenter"><p><a href="064.jpg" name="ivan"><img src="064.jpg" alt="Ivan learns the language of the birds" /></a>
            &nbsp;</p><p align="center"><i>Ivan learns the language of the birds</i></p></div>\(words)
            <div class="figcenter"><img src="065.jpg" alt="" /><p>He climbed the tree.</p></div>
            <figure><img src="066.jpg" alt="a tree" /><figcaption>The old oak</figcaption></figure>\(words)</body></html>
            """
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.filter { !$0.text.hasPrefix("Some time") }.map(\.text),
                       ["CHAPTER I.", "Ivan learns the language of the birds", "", "He climbed the tree.", "The old oak"])
        XCTAssertEqual(blocks.filter { $0.kind == .illustration }.map(\.link), ["064.jpg", "065.jpg", "066.jpg"])
    }

    /// A picture without words stands where it stands, unless it stands
    /// in a line of text (an ornament there says nothing); the contents'
    /// title drawn as a picture goes with the list.
    func testAPictureWithoutWordsStandsWhereItStands() {
        let words = "<p>" + String(repeating: "Cheese market day in a town in the north of Holland. ", count: 6) + "</p>"
        let html = """
            <html><body><div><img src="006.gif" alt="Contents" /></div>
            <div class="toc"><p><b>1. <a href="#c1">I Remember Cheese</a></b></p><p><b>2. <a href="#c2">The Big Cheese</a></b></p></div>
            <h2><a id="c1"></a>I Remember Cheese</h2>\(words)<p><img src="008.gif" alt="" /></p>
            <p>He knocked <img src="dot.gif" alt="" /> twice.</p><h2><a id="c2"></a>The Big Cheese</h2>\(words)
            <p><span class="letra"><img src="i_282_b.png" alt="" /></span>ELIZABETH, when Mr. Darcy gave her the letter, read it.</p>
            <p><img src="frog.jpg" alt="" /><br />Fig. 1. The frog.</p></body></html>
            """
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.filter { !$0.text.hasPrefix("Cheese market") }.map(\.text),
                       ["I Remember Cheese", "", "He knocked twice.", "The Big Cheese", "ELIZABETH, when Mr. Darcy gave her the letter, read it.",
                        "", "Fig. 1. The frog."])
        XCTAssertEqual(blocks.filter { $0.kind == .illustration }.map(\.link), ["008.gif", "frog.jpg"])
    }

    /// A list of illustrations names pictures, not sections: a plate's
    /// caption set as a heading after it is none (its words stay under
    /// the picture). A page's anchor in its
    /// dropped number still names the heading after it, and a page's
    /// link beside the link to a chapter's own anchor is that entry's
    /// page; an entry whose anchor the book set mid-text, in a list whose
    /// other entries name headings, opens its section there.
    func testAListOfIllustrationsNamesNoSectionsAndPagesNameTheirHeadings() {
        let words = "<p>" + String(repeating: "About two thousand people gathered at the foot of the Monument. ", count: 6) + "</p>"
        func row(_ title: String, _ target: String, _ page: String) -> String {
            "<tr><td>\(title)</td><td class=\"tdr\"><a href=\"#\(target)\">\(page)</a></td></tr>"
        }
        func page(_ number: Int) -> String { "<p><span class=\"pagenum\"><a name=\"Page_\(number)\" id=\"Page_\(number)\">[Pg \(number)]</a></span></p>" }
        func plate(_ number: Int, _ caption: String) -> String {
            "<p><a name=\"illo_\(number)\"></a></p><div class=\"figcenter\"><img src=\"\(number).jpg\" alt=\"\" /></div><h6>\(caption)</h6>"
        }
        let html = """
            <html><body><h2>CONTENTS</h2><table summary="Table of Contents"><tr><td>&nbsp;</td><td class="tdr">page</td></tr>
            \(row("Prefatory Note", "Page_3", "3"))\(row("Introduction", "Page_9", "9"))<tr><td>At Queenston Heights—</td></tr>
            \(row("<span style=\"margin-left: 2em;\">Representatives Present</span>", "reps", "34"))
            <tr><td><a href="#CHAPTER_I">I</a></td><td>ON JOURNEYS THROUGH THE STATES</td><td><a href="#Page_40">40</a></td></tr></table>
            <h2>ILLUSTRATIONS</h2><table summary="Illustrations"><tr><td>&nbsp;</td><td class="tdr">page</td></tr>
            \(row("First Monument to General Brock", "illo_32", "32"))\(row("Brock's Monument", "illo_34", "34"))</table>
            \(page(3))<h2>PREFATORY NOTE</h2>\(words)\(plate(32, "FIRST MONUMENT TO GENERAL BROCK.<br />—Ontario Archives."))\(words)
            \(page(9))<h2>INTRODUCTION</h2>\(words)\(plate(34, "BROCK'S MONUMENT."))
            <p><a name="reps"></a>Among those present were the Hon. R. A. Pyne and Colonel Ryerson.</p>\(words)
            \(page(40))<h1>AMERICAN ADVENTURES</h1><h2><a name="CHAPTER_I"></a>CHAPTER I<br /><br />ON JOURNEYS THROUGH THE STATES</h2>
            \(words)</body></html>
            """
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title),
                       ["PREFATORY NOTE", "INTRODUCTION", "Representatives Present", "CHAPTER I. ON JOURNEYS THROUGH THE STATES"])
        let pictures = content.blocks.indices.filter { content.blocks[$0].kind == .illustration }
        XCTAssertEqual(pictures.map { content.blocks[$0 + 1].text }, ["FIRST MONUMENT TO GENERAL BROCK.\n—Ontario Archives.", "BROCK'S MONUMENT."])
    }

    /// A section an entry opens at a paragraph stands at the level of the
    /// headings its list's other entries name (a play's scene after the
    /// curtain beside its acts in `h3`); a paragraph under a picture is
    /// its caption and opens none.
    func testASectionOpenedAtAParagraphStandsBesideItsListsHeadings() {
        let words = "<p>" + String(repeating: "Lily Parradell walks slowly across the drawing room. ", count: 6) + "</p>"
        let html = """
            <html><body><h2>THE PLAY</h2><h5>Contents</h5><p><a href="#act1">First Act</a>: <i>the drawing room</i></p>
            <p><a href="#act2">Second Act</a>: <i>the saloon</i></p><p><a href="#act2b">Second Act</a> (after curtain): <i>the same</i></p>
            <p><a href="#act3">Third Act</a>: <i>the boudoir</i></p><p><a href="#lily">Lily at the window</a></p>
            <h3><a name="act1"></a>THE FIRST ACT</h3>\(words)<h3><a name="act2"></a>THE SECOND ACT</h3>\(words)
            <p><a name="act2b"></a>The curtain rises again on the same scene, later.</p>\(words)<h3><a name="act3"></a>THE THIRD ACT</h3>\(words)
            <p><img src="lily.jpg" alt="" /></p><p><a name="lily"></a>Lily at the window.</p>\(words)
            </body></html>
            """
        let sections = GutenbergHTML.content(of: Array(html.utf8)).content.sections
        XCTAssertEqual(sections.map { "\($0.level) \($0.title)" }, ["0 THE FIRST ACT", "0 THE SECOND ACT", "0 Second Act", "0 THE THIRD ACT"])
    }

    /// A page's number written as the print's in an element of its own
    /// (`<span class="pn">{7}</span>`, two over a break, `[Pg 9]`) goes,
    /// with no anchor to say so; a number in brackets alone may be a
    /// note's mark, and a braced number in running text is the book's.
    func testAPagesNumberWrittenInAnElementOfItsOwnGoes() {
        let html = """
            <html><body><h2>CHAPTER I</h2><p><span class="pn">{7}</span></p>
            <p>Para deante é que é o caminho.<span class="pn">{14}<br>{15}</span></p>
            <p>It was late<span class="pagenum-x">[Pg 9]</span> when he came, <span class="ref">[7]</span> and the set {3} stood.</p>
            </body></html>
            """
        let texts = GutenbergHTML.content(of: Array(html.utf8)).content.blocks.filter { $0.kind != .heading }.map(\.text)
        XCTAssertEqual(texts, ["Para deante é que é o caminho.", "It was late when he came, [7] and the set {3} stood."])
        var generator = SeededGenerator(seed: 45)
        for _ in 0..<200 {
            let number = Bool.random(using: &generator) ? String(Int.random(in: 1...9_999, using: &generator)) : ["xiv", "ii", "lxxx"].randomElement(using: &generator)!
            let written = ["{\(number)}", "{ \(number) }", "[Pg \(number)]", "[pg. \(number)]", "[p. \(number)]", "(Page \(number).)"]
            let marks = ["[\(number)]", "(\(number))", "{\(number)a}", "[see \(number)]", "{ }", "[Pg]"]
            for text in written { XCTAssertTrue(HTMLBlocks.isWrittenPageNumber(text), text) }
            for text in marks { XCTAssertFalse(HTMLBlocks.isWrittenPageNumber(text), text) }
        }
    }

    /// Under no-break spaces a row still begins with its link (`&nbsp;
    /// <a>VII.</a> The American Doctor`): the list is the contents, and
    /// goes.
    func testAContentsRowIndentedByNoBreakSpacesBeginsWithItsLink() {
        let words = "<p>" + String(repeating: "Many of the great powers believe themselves to be passing through. ", count: 6) + "</p>"
        let rows = ["I", "II", "III"].map {
            "<li><span class=\"mono\">&nbsp;&nbsp;&nbsp;<a href=\"#CHAPTER_\($0)\">\($0).</a></span>&nbsp;&nbsp;<span>The American Man</span></li>"
        }
        let chapters = ["I", "II", "III"].map { "<h2><a id=\"CHAPTER_\($0)\"></a>CHAPTER \($0)</h2>\(words)" }
        let html = "<html><body><h2>CONTENTS</h2><div class=\"index\"><ul>\(rows.joined())</ul></div>\(chapters.joined())</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertFalse(content.blocks.contains { $0.text.contains("The American Man") || $0.text == "CONTENTS" })
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I", "CHAPTER II", "CHAPTER III"])
    }

    /// An entry that says it is a picture's (`Illustration: Beverley with
    /// potion`) names no section, though a caption stands before the
    /// picture it points to.
    func testAnEntryThatSaysItIsAPicturesNamesNoSection() {
        let words = "<p>" + String(repeating: "The gamester sat alone and counted what was left of the night. ", count: 6) + "</p>"
        let html = """
            <html><body><div class="contents"><a href="#act4">Act IV</a><br><a href="#act5">Act V</a><br>
            <a href="#ill2">Illustration: Beverley with potion</a></div>
            <h2><a name="act4"></a>ACT IV.</h2>\(words)<h2><a name="act5"></a>ACT V.</h2>\(words)
            <a name="ill2"> </a><p><i>Act 5.</i> The Gamester. <i>Sc. 4.</i></p><p><img src="images/img09.jpg" alt="Beverley"></p>
            <p>THE END.</p></body></html>
            """
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.title), ["ACT IV.", "ACT V."])
    }

    /// A page of links to another edition's files (`https://…/8799-h.htm#link9`,
    /// canto by canto) is an index of them, as one of relative links is:
    /// no outline, so `get` gives way to the plain text.
    func testAPageOfLinksToAnotherEditionsFilesIsAnIndexOfThem() {
        func cantos(_ base: String) -> String {
            (1...12).map { "<a href=\"\(base)8799-h.htm#link\($0)\">Canto \($0)</a>" }.joined(separator: " ")
        }
        for base in ["https://www.gutenberg.org/files/8799/8799-h/", "http://www.gutenberg.org/files/8799/8799-h/", ""] {
            let html = "<html><body><h1>THE DIVINE COMEDY</h1><h2>PARADISE</h2><p>\(cantos(base))</p><h2>HELL</h2><p>\(cantos(base))</p></body></html>"
            XCTAssertFalse(GutenbergHTML.content(of: Array(html.utf8)).hasOutline, base)
        }
        let linkingOut = "<p>" + String(repeating: "Words of the book itself, many of them, running on. ", count: 300) + "</p>"
        let book = "<html><body><h2>PARADISE</h2>\(linkingOut)<p>\(cantos("https://www.gutenberg.org/files/8799/8799-h/"))</p><h2>HELL</h2>\(linkingOut)</body></html>"
        XCTAssertTrue(GutenbergHTML.content(of: Array(book.utf8)).hasOutline, "a book with a few links out is no index")
    }

    /// A list after the text that leads back to pages (an index's `Gruel
    /// | 5`) names no sections, though a page may begin with a heading.
    func testAnIndexLeadingBackToPagesNamesNoSections() {
        let words = "<p>" + String(repeating: "Stir three large spoonfuls of oat-meal into the skillet. ", count: 6) + "</p>"
        func page(_ number: Int) -> String { "<span class=\"pagenum\"><a name=\"Page_\(number)\" id=\"Page_\(number)\"></a>{\(number)}</span>" }
        let html = """
            <html><body><h3>CONTENTS</h3><p><a href="#ch1">CHAPTER I. SIMPLE REMEDIES</a></p><p><a href="#ch2">CHAPTER II. COOKING</a></p>
            <h2><a id="ch1"></a>CHAPTER I. SIMPLE REMEDIES</h2>\(words)\(page(5))<h4>GRUEL.</h4>\(words)\(page(7))<h4>SOAP.</h4>\(words)
            <h2><a id="ch2"></a>CHAPTER II. COOKING</h2>\(words)<h3>INDEX.</h3>
            <table><tr><td>Gruel</td><td><a href="#Page_5">5</a></td></tr><tr><td>Soap</td><td><a href="#Page_7">7</a></td></tr></table>
            </body></html>
            """
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.title), ["CHAPTER I. SIMPLE REMEDIES", "CHAPTER II. COOKING"])
    }

    /// A contents entry that gives only its page (`GRUEL. 30`, or with no
    /// space before it, `ARROW-ROOT JELLY,31`) names the heading in that
    /// page that reads as it, wherever on the page it begins, and two
    /// entries on one page name their own headings.
    func testAPageEntryNamesTheHeadingInItsPageThatReadsAsIt() {
        let words = "<p>" + String(repeating: "Stir three large spoonfuls of oat-meal into the skillet. ", count: 6) + "</p>"
        func page(_ number: Int) -> String { "<span class=\"pagenum\"><a name=\"page\(number)\" id=\"page\(number)\"></a>{\(number)}</span>" }
        let html = """
            <html><body><h3>TABLE OF CONTENTS</h3><div class="toc"><p>SIMPLE REMEDIES. <a href="#page24">24</a></p>
            <p class="i4">GRUEL. <a href="#page30">30</a></p><p class="i4">EGG GRUEL. <a href="#page31">31</a></p>
            <p class="i4">ARROW-ROOT JELLY,<a href="#page31">31</a></p></div>
            \(page(24))<h3>SIMPLE REMEDIES.</h3>\(words)<p>Some words of page 29 and\(page(30)) of page 30.</p>\(words)<h4>GRUEL.</h4>\(words)
            <p>A little salt, white sugar, and nutmeg.</p>\(page(31))<h4>EGG GRUEL.</h4>\(words)<h4>ARROW-ROOT JELLY.</h4>\(words)</body></html>
            """
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.title),
                       ["SIMPLE REMEDIES.", "GRUEL.", "EGG GRUEL.", "ARROW-ROOT JELLY."])
    }

    /// Two anchors side by side before a group's heading: the second
    /// entry names the heading after it when that reads as it does, and
    /// the group holds its numbered poems.
    func testTwoAnchorsBeforeAGroupsHeadingNameItAndItsFirstPart() {
        let verse = "<p class=\"poem\">" + String(repeating: "The first rose on my rose-tree budded, bloomed, and shattered. ", count: 4) + "</p>"
        let entries = [("Renascence", "renascence"), ("Three Songs of Shattering", "songs"), ("I", "songs1"), ("II", "songs2"),
                       ("The Shroud", "shroud"), ("Sonnets", "sonnets"), ("I", "sonnets1"), ("II", "sonnets2")]
        let contents = entries.map { "<p class=\"noindent\"><a href=\"#\($0.1)\">\($0.0)</a></p>" }.joined()
        let body = """
            <a name="renascence"></a><h3>Renascence</h3>\(verse)
            <a name="songs"></a><a name="songs1"></a><h3>Three Songs of Shattering</h3><h3>I</h3>\(verse)
            <a name="songs2"></a><h3>II</h3>\(verse)<a name="shroud"></a><h3>The Shroud</h3>\(verse)
            <a name="sonnets"></a><a name="sonnets1"></a><h3>Sonnets</h3><h3>I</h3>\(verse)<a name="sonnets2"></a><h3>II</h3>\(verse)
            """
        let html = "<html><body><h2>CONTENTS</h2>\(contents)\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["1 Renascence", "0 Three Songs of Shattering", "1 I", "1 II", "1 The Shroud", "0 Sonnets", "1 I", "1 II"])
    }

    /// A contents entry's number before the words its heading ends with
    /// (`1. Introduction` over INTRODUCTION.) numbers a chapter under its
    /// part, not a preface beside the parts.
    func testAnEntrysNumberBeforeItsHeadingsWordsNumbersAChapter() {
        let words = "<p>" + String(repeating: "Success in battle is the ultimate object of all military training. ", count: 4) + "</p>"
        let parts = [("PART_I", "Part I.—DRILL.", ["INTRODUCTION.", "ORDERS.", "SCHOOL OF THE SQUAD."]),
                     ("PART_II", "Part II.—COMBAT.", ["INTRODUCTION.", "LEADERSHIP."])]
        var contents = "", body = ""
        for (anchor, part, chapters) in parts {
            contents += "<h3><a href=\"#\(anchor)\">\(part)</a></h3><table>"
            body += "<h1><a id=\"\(anchor)\"></a>\(part)</h1>"
            for (number, chapter) in chapters.enumerated() {
                let label = "\(number + 1). " + (chapter == "SCHOOL OF THE SQUAD." ? "The squad" : chapter.dropLast().capitalized)
                contents += "<tr><td><a href=\"#\(anchor)_\(number)\">\(label)</a></td><td><a href=\"#para\(anchor)\(number)\">1–30</a></td></tr>"
                body += "<h2><a id=\"\(anchor)_\(number)\"></a>\(chapter)</h2><p><a id=\"para\(anchor)\(number)\">1.</a></p>\(words)"
            }
            contents += "</table>"
        }
        let html = "<html><body><h2>TABLE OF CONTENTS.</h2>\(contents)\(body)</body></html>"
        let outline = GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }
        XCTAssertEqual(outline, ["0 Part I.—DRILL.", "1 INTRODUCTION.", "1 ORDERS.", "1 SCHOOL OF THE SQUAD.",
                                 "0 Part II.—COMBAT.", "1 INTRODUCTION.", "1 LEADERSHIP."])
    }

    /// A note whose words are a cross-reference (`(118) <a
    /// href="#Page_361">Siehe unten p. 361</a> ff.`) is the note's text,
    /// not a contents entry, wherever the page it names stands.
    func testANoteThatIsACrossReferenceStaysANote() {
        var generator = SeededGenerator(seed: 47)
        let words = String(repeating: "Words of the chapter run on here. ", count: 8)
        for round in 0..<30 {
            let count = Int.random(in: 1...4, using: &generator)
            let page = Int.random(in: 2...400, using: &generator)
            let laterPage = Bool.random(using: &generator)
            var body = "<p><span class=\"pagenum\"><a id=\"Page_\(page)\">\(page)</a></span></p>"
            var notes = "", expected: [String] = []
            for number in 1...count {
                let label = ["(\(number))", "[\(number)]", "\(number)."].randomElement(using: &generator)!
                let reference = ["Siehe unten p.&#160;\(page)", "See p. \(page)", "Vgl. oben p. \(page)."].randomElement(using: &generator)!
                body += "<p>\(words)<a id=\"FNanchor_\(number)\" href=\"#Footnote_\(number)\">\(label)</a></p>"
                notes += "<div class=\"footnote\"><p><a name=\"Footnote_\(number)\" href=\"#FNanchor_\(number)\" class=\"label\">\(label)</a>"
                    + "\n<a href=\"#Page_\(page)\">\(reference)</a>&#160;ff.</p></div>"
                expected.append("Footnote_\(number)")
            }
            let html = laterPage ? "<html><body><h2>I.</h2>\(notes)\(body)</body></html>" : "<html><body><h2>I.</h2>\(body)\(notes)</body></html>"
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            let kept = blocks.filter { $0.kind == .footnote }
            XCTAssertEqual(kept.compactMap(\.link), expected, "round \(round): \(html)")
            XCTAssertTrue(kept.allSatisfy { $0.text.hasSuffix("\(page) ff.") || $0.text.hasSuffix("\(page). ff.") }, "round \(round): \(kept.map(\.text))")
        }
    }

    /// A short line that opens with a note's mark in brackets
    /// (`[238]Coquedicot, dans qu’est qu’il fait le burre?`) is the book's
    /// line, not a contents entry: its words stay, its mark reaches its note.
    func testALineOpeningWithANotesMarkKeepsItsWords() {
        var generator = SeededGenerator(seed: 50)
        for round in 0..<30 {
            let number = Int.random(in: 1...400, using: &generator)
            let label = ["[\(number)]", "(\(number))", "[*]", "(*)", "[†]"].randomElement(using: &generator)!
            let line = ["Coquedicot, dans qu’est qu’il fait le burre?", "And the wind blew cold", "Tous les jours"].randomElement(using: &generator)!
            let tag = ["div class=\"verse\"", "p", "div"].randomElement(using: &generator)!
            let close = String(tag.prefix { $0 != " " })
            let html = """
                <html><body><h2>I.</h2><\(tag)>Coquedicot, dans sa grand botte?</\(close)>
                <\(tag)><a name="FNanchor_\(number)"></a><a href="#Footnote_\(number)" class="fnanchor">\(label)</a>\(line)</\(close)>
                <\(tag)>Coquedicot, dans son grand verre!</\(close)>
                <p><a name="Footnote_\(number)"></a><a href="#FNanchor_\(number)"><span class="label">\(label)</span></a> These two lines were omitted.</p>
                </body></html>
                """
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            let holding = blocks.first { $0.kind != .footnote && $0.text.contains(line) }
            XCTAssertNotNil(holding, "round \(round): \(blocks.map(\.text))")
            XCTAssertEqual(holding?.link, "Footnote_\(number)", "round \(round): \(html)")
            XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.link), ["Footnote_\(number)"], "round \(round)")
        }
        // A paragraph that opens with its note's number (`711`, `71b`)
        // keeps its words; a short entry a number links is an entry.
        let sentence = "But the humanity of the reader will permit me to draw a veil over the rest of this infernal description, "
            + "which the zealous African pursues in a long variety of affected and unfeeling witticisms."
        for label in ["711", "71b", "7"] {
            let html = """
                <html><body><h2 id="c1">CHAPTER XV.</h2><p><a href="#c2">12</a> The Inn</p>
                <p><a href="#note-\(label)" id="ref-\(label)">\(label)</a> \(sentence)</p><h2 id="c2">The Inn</h2><p>\(sentence)</p>
                <p class="foot">\(label) (<a href="#ref-\(label)">return</a>) <a id="note-\(label)"></a>[ The note.]</p></body></html>
                """
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            XCTAssertEqual(content.blocks.filter { $0.text.hasSuffix(sentence) }.count, 2, "\(label): \(content.blocks.map(\.text))")
            XCTAssertFalse(content.blocks.contains { $0.text.hasPrefix("12") }, "\(content.blocks.map(\.text))")
        }
    }

    /// A note whose bracketed words are followed, in its paragraph, by
    /// the book's own text with references to further notes (`52 [ Spanheim
    /// … &c.] It was once proposed … 53`): the note ends at its bracket,
    /// the rest is a paragraph of the book, and its references reach their
    /// notes. Words after the bracket without references (an editor's
    /// `—M.`, a date) stay the note's.
    func testTheBooksTextRunOnAfterANotesBracketIsTheBooks() {
        var generator = SeededGenerator(seed: 53)
        let words = String(repeating: "Words of the chapter run on here. ", count: 8)
        for round in 0..<30 {
            let first = Int.random(in: 1...300, using: &generator)
            let later = Int.random(in: 1...4, using: &generator)
            let nested = ["", " l. xi. [Suppl.] and xxix.", " [c. 67.] p. 12"].randomElement(using: &generator)!
            let label = ["\(first) (<a href=\"#ref-\(first)\">return</a>)<br />", "<a href=\"#ref-\(first)\">\(first)</a>", ""].randomElement(using: &generator)!
            func reference(_ number: Int) -> String {
                "<a href=\"#note-\(number)\" id=\"ref-\(number)\">\(number)</a>"
            }
            func note(_ number: Int, _ text: String) -> String {
                "<p><a id=\"note-\(number)\"></a></p><p class=\"foot\">\(text)</p>"
            }
            var runOn = "It was once proposed to discriminate the slaves by a peculiar habit"
            var notes = ""
            for number in (first + 1)...(first + later) {
                runOn += "; and so it went on \(reference(number))"
                notes += note(number, "\(number) (<a href=\"#ref-\(number)\">return</a>)<br /> [ Seneca de Clementia, l. i. c. \(number).]")
            }
            let html = "<html><body><h2>I.</h2><p>\(words)\(reference(first))</p>"
                + note(first, "\(label) [ Spanheim, Orbis Roman.\(nested) p. 124, &amp;c.] \(runOn) the end.") + notes + "</body></html>"
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            let noteAt = blocks.firstIndex { $0.kind == .footnote && $0.link == "note-\(first)" }
            XCTAssertEqual(noteAt.map { blocks[$0].text.hasSuffix("&c.]") }, true, "round \(round): \(blocks)")
            guard let noteAt, noteAt + 1 < blocks.count else { continue }
            let body = blocks[noteAt + 1]
            XCTAssertEqual(body.kind, .prose, "round \(round)")
            XCTAssertTrue(body.text.hasPrefix("It was once proposed") && body.text.hasSuffix("the end."), "round \(round): \(body.text)")
            XCTAssertEqual(body.link, ((first + 1)...(first + later)).map { "note-\($0)" }.joined(separator: " "), "round \(round)")
            XCTAssertEqual(NoteMarks.marks(in: body.text).map(\.label), ((first + 1)...(first + later)).map(String.init), "round \(round)")
        }
        for after in ["&mdash;M.", "Bentinck Street, March 1, 1782.", "[See Theatre Of Marcellus.]"] {
            let html = """
                <html><body><h2>I.</h2><p>\(words)<a href="#note-3" id="ref-3">3</a></p>
                <p><a id="note-3"></a></p><p class="foot">3 (<a href="#ref-3">return</a>)<br /> [ The octavo edition.] \(after)</p></body></html>
                """
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertEqual(blocks.filter { $0.kind == .footnote }.count, 1, "\(after): \(blocks)")
            XCTAssertTrue(blocks.last?.kind == .footnote && blocks.last?.text.hasPrefix("3 [ The octavo") == true, "\(after): \(blocks)")
        }
    }

    /// A bracketed reference to a page of the print that ends its
    /// paragraph (`[Page <a href="#Page_374">374</a>.]` after a plate's
    /// caption) goes: the text keeps no pages to turn to. A page named in
    /// the book's words (`see page 12`, `[Page 12, line 3]`, `as Griesinger
    /// [p. 111] says`) stays; a note's mark before the reference still
    /// reaches its note.
    func testAReferenceToAPageOfThePrintGoes() {
        var generator = SeededGenerator(seed: 56)
        let words = String(repeating: "Words of the chapter run on here. ", count: 8)
        for round in 0..<30 {
            let page = Int.random(in: 2...400, using: &generator)
            let anchor = ["Page_\(page)", "pg\(page)", "page-\(page)", "p\(page)"].randomElement(using: &generator)!
            let word = ["Page", "Pg", "Pg.", "p.", "Seite"].randomElement(using: &generator)!
            let stop = ["", "."].randomElement(using: &generator)!
            let caption = "An attractive altar arrangement for a house wedding."
            let html = """
                <html><body><h2>I.</h2><p>\(words)<span class="pagenum"><a id="\(anchor)">\(page)</a></span>\(words)</p>
                <p>&quot;\(caption)&quot;<a href="#fn1" id="r1">1</a> [\(word) <a href="#\(anchor)">\(page)</a>\(stop)] </p>
                <p>See page <a href="#\(anchor)">\(page)</a>, and [\(word) <a href="#\(anchor)">\(page)</a>, line 3].</p>
                <p>As Griesinger [\(word) <a href="#\(anchor)">\(page)</a>\(stop)] says.</p>
                <p>And so [\(word) <a href="#\(anchor)">\(page)</a>, line 3]</p>
                <div class="footnote"><p><a id="fn1" href="#r1">1</a> The note.</p></div></body></html>
                """
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertTrue(blocks.contains { $0.text == "\"\(caption)\"[1]" }, "round \(round): \(blocks.map(\.text))")
            XCTAssertTrue(blocks.contains { $0.text == "And so [\(word) \(page), line 3]" }, "round \(round): \(blocks.map(\.text))")
            XCTAssertTrue(blocks.contains { $0.text == "As Griesinger [\(word) \(page)\(stop)] says." }, "round \(round): \(blocks.map(\.text))")
            XCTAssertTrue(blocks.contains { $0.text == "See page \(page), and [\(word) \(page), line 3]." }, "round \(round): \(blocks.map(\.text))")
            XCTAssertEqual(blocks.first { $0.text.contains(caption) }?.link, "fn1", "round \(round)")
        }
    }

    /// A reference alone in its paragraph (the frontispiece's note, under
    /// the title) is the book's reference, not a contents entry: it stays,
    /// and its note is a note.
    func testAReferenceAloneInItsParagraphReachesItsNote() {
        var generator = SeededGenerator(seed: 55)
        let words = String(repeating: "Words of the chapter run on here. ", count: 8)
        for round in 0..<30 {
            let number = Int.random(in: 1...300, using: &generator)
            let anchor = ["linknote-\(number)", "Footnote_\(number)", "fn\(number)"].randomElement(using: &generator)!
            let mark = ["<small>\(number)</small>", "[\(number)]", "<sup>\(number)</sup>", "*"].randomElement(using: &generator)!
            let back = ["\(number) (<a href=\"#ref\">return</a>)<br />", "<a href=\"#ref\">[\(number)]</a>"].randomElement(using: &generator)!
            let html = """
                <html><body><h1>A STUDY IN SCARLET.</h1><h2>By A. Conan Doyle</h2>
                <p><a href="#\(anchor)" id="ref">\(mark)</a></p><h2>CHAPTER I.</h2><p>\(words)</p>
                <h2>NOTES</h2><p><a id="\(anchor)"></a></p><p class="foot">\(back) [ Frontispiece, with the caption.]</p></body></html>
                """
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.link), [anchor], "round \(round): \(blocks)")
            XCTAssertTrue(blocks.contains { $0.kind == .prose && $0.link == anchor }, "round \(round): \(blocks)")
        }
    }

    /// A note's frame left open (`<div class="footnote">` never closed)
    /// ends at the next heading: the book goes on as text, its next note
    /// a note again. Notes under their own heading inside their frame stay
    /// notes.
    func testANoteFrameLeftOpenEndsAtTheNextHeading() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 8)
        let unclosed = """
            <html><body><h2>I.</h2><p>\(words)<a id="tag5" href="#note5">5</a></p>
            <div class="footnote"><p><a name="note5" href="#tag5">5</a> Anonymous.</p>
            <h4>COSTUMES</h4><p>The magister should wear a purple<a id="tag6" href="#note6">6</a> border. \(words)</p>
            <p>The tabellae may be made of slates.</p>
            <div class="footnote"><p><a name="note6" href="#tag6">6</a> That is, the color of clotted blood.</p></div>
            </body></html>
            """
        let blocks = GutenbergHTML.content(of: Array(unclosed.utf8)).content.blocks
        XCTAssertEqual(blocks.filter { $0.kind == .footnote }.map(\.link), ["note5", "note6"])
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("The magister") }?.kind, .prose)
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("The magister") }?.link, "note6")
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("The tabellae") }?.kind, .prose)
        let underTheirHeading = """
            <html><body><h2>I.</h2><p>\(words)<a id="r1" href="#n1">1</a> \(words)<a id="r2" href="#n2">2</a></p>
            <div class="footnotes"><h3>FOOTNOTES</h3><p>Below, the notes.</p><p><a id="n1" href="#r1">1</a> The first.</p>
            <p><a id="n2" href="#r2">2</a> The second.</p></div></body></html>
            """
        let notes = GutenbergHTML.content(of: Array(underTheirHeading.utf8)).content.blocks.filter { $0.kind == .footnote }
        XCTAssertEqual(notes.map(\.text), ["Below, the notes.", "1 The first.", "2 The second."])
    }

    /// A picture no taller than a line of type within a line (a worn
    /// inscription's letters) reads as its words there, as the plain text
    /// gives them; a taller one, or one that opens its paragraph, is an
    /// illustration.
    func testAGlyphWithinALineReadsAsItsWords() {
        var generator = SeededGenerator(seed: 48)
        for _ in 0..<30 {
            let alt = ["Χ/---|ΤΑΛΑΣ.", "½", "symbolum", "Ω"].randomElement(using: &generator)!
            let height = Int.random(in: 8...32, using: &generator)
            let wrapped = Bool.random(using: &generator) ? "<span title=\"\(alt)\"><img class=\"inline\" src=\"images/g.png\" width=\"110\" height=\"\(height)\" alt=\"\(alt)\"></span>"
                : "<img src=\"images/g.png\" height=\"\(height)px\" alt=\"\(alt)\" />"
            let html = "<html><body><div class=\"footnote\"><a name=\"note16\" href=\"#tag16\">16.</a> Χατάλας editor: \(wrapped) Χαρτάδας vel Χαρητάδας.</div></body></html>"
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertEqual(blocks.map(\.text), ["16. Χατάλας editor: \(alt) Χαρτάδας vel Χαρητάδας."], html)
        }
        let tall = "<html><body><p>Before the plate <img src=\"p.png\" height=\"400\" alt=\"The Shield\"> after it.</p></body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(tall.utf8)).content.blocks.map(\.kind), [.prose, .illustration, .prose])
        let opening = "<html><body><p><img src=\"g.png\" height=\"20\" alt=\"Ornament\"> The chapter begins.</p></body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(opening.utf8)).content.blocks.map(\.kind), [.illustration, .prose])
    }

    /// A page's number wrapped over a line break (`[pg⏎ x]`) is still the
    /// print's; an alternative text that opens with the marker's word
    /// (`Illustration: VULCAN.`) says it once.
    func testAWrappedPageNumberGoesAndAnIllustrationIsNamedOnce() {
        var generator = SeededGenerator(seed: 46)
        for _ in 0..<40 {
            let number = Int.random(in: 1...400, using: &generator)
            let written = Bool.random(using: &generator) ? String(number) : ["ix", "xiv", "xl", "cc"].randomElement(using: &generator)!
            let space = [" ", "\n", "\n        ", "\t", "", "&#160;", "&nbsp;"].randomElement(using: &generator)!
            let caption = ["VULCAN.", "THETIS CALLING BRIAREUS.", "Map of the Plain of Troy"].randomElement(using: &generator)!
            let alt = ["Illustration: ", "Illustration. ", "[Illustration: ", "ILLUSTRATION—"].randomElement(using: &generator)!
            let closing = alt.hasPrefix("[") ? "]" : ""
            let html = """
                <html><body><p>in contemplating the incidents in their<span class="tei tei-pb" id="page\(written)">[pg\(space)\(written)]</span> lives</p>
                <img src="images/i.png" alt="\(alt)\(caption)\(closing)" /></body></html>
                """
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertEqual(blocks.first?.text, "in contemplating the incidents in their lives", html)
            XCTAssertEqual(blocks.last?.text, caption, html)
        }
        let named = "<html><body><p>Words.</p><img src=\"i.png\" alt=\"Illustrations of the Iliad\" /></body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(named.utf8)).content.blocks.last?.text, "Illustrations of the Iliad")
    }

    /// A title page set in ever smaller headings divides nothing; headings
    /// under the book's title that divide it stay sections.
    func testATitlePageInHeadingsIsNoOutline() {
        let story = "<p>" + String(repeating: "Once upon a time there were four little Rabbits. ", count: 8) + "</p>"
        let titlePage = "<h2>BEATRIX POTTER</h2><h3>FREDERICK WARNE</h3><h6>Printed and bound in Great Britain</h6>"
        let book = GutenbergHTML.content(of: Array("<html><body><h1>PETER RABBIT</h1>\(titlePage)\(story)</body></html>".utf8))
        XCTAssertFalse(book.hasOutline)
        XCTAssertEqual(book.content.sections.count, 1)
        let tales = GutenbergHTML.content(of: Array("<html><body><h2>TALES</h2><h3>THE HARE</h3>\(story)<h3>THE TORTOISE</h3>\(story)</body></html>".utf8))
        XCTAssertEqual(tales.content.sections.map(\.title), ["THE HARE", "THE TORTOISE"])
    }

    /// Without a contents list: numerals alone in the tag of the parts
    /// (`<h3>PART I</h3>`, `<h3>I</h3>`) are the parts' chapters, and the
    /// author's name under the title, alone above the parts with no
    /// words of its own, is no section either.
    func testNumeralsInThePartsTagAreTheirChapters() {
        let words = "<p>" + String(repeating: "I am a sick man. I am a spiteful man. I am an unattractive man. ", count: 4) + "</p>"
        var body = "<h1>Notes from the Underground</h1><h2>FYODOR DOSTOYEVSKY</h2>"
        var expected: [String] = []
        for (part, chapters) in [("PART I", ["I", "II", "III"]), ("PART II. A Propos of the Wet Snow", ["I", "II"])] {
            body += "<h3>\(part)</h3>"
            expected.append("0 \(part)")
            for chapter in chapters {
                body += "<h3>\(chapter)</h3>\(words)"
                expected.append("1 \(chapter)")
            }
        }
        let content = GutenbergHTML.content(of: Array("<html><body>\(body)</body></html>".utf8)).content
        XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, expected)
        let signed = body.replacingOccurrences(of: "DOSTOYEVSKY</h2>", with: "DOSTOYEVSKY</h2>\(words)")
        let preface = GutenbergHTML.content(of: Array("<html><body>\(signed)</body></html>".utf8)).content
        XCTAssertEqual(preface.sections.first?.title, "FYODOR DOSTOYEVSKY", "a heading with words of its own stays")
    }

    /// A contents titles each of its lists by the book it holds (`Book I`
    /// over a table of `CHAPTER I` …), and each book's first chapter's
    /// anchor stands before the book's heading: the books hold their
    /// chapters, alike whatever their tags in the text, and the entry names its
    /// chapter, not the book.
    func testBooksTitlingTheContentsListsHoldTheirChapters() {
        let words = "<p>" + String(repeating: "On a January evening of the early seventies, Christine Nilsson was singing. ", count: 4) + "</p>"
        var contents = "<h2>CONTENTS</h2>", body = ""
        var expected: [String] = []
        for (book, (tag, chapters)) in [(tag: 3, chapters: [1, 2, 3]), (tag: 2, chapters: [4, 5])].enumerated() {
            let title = "Book " + ["I", "II"][book]
            contents += "<h3>\(title)</h3><table><tr>"
            body += "<a name=\"chap\(chapters[0])\"></a><h\(tag)>\(title)</h\(tag)>"
            expected.append("0 \(title)")
            for chapter in chapters {
                let numeral = ["I", "II", "III", "IV", "V"][chapter - 1]
                contents += "<td><a href=\"#chap\(chapter)\">CHAPTER \(numeral)</a></td>"
                body += (chapter == chapters[0] ? "" : "<a name=\"chap\(chapter)\"></a>") + "<h3>\(numeral).</h3>\(words)"
                expected.append("1 \(numeral).")
            }
            contents += "</tr></table>"
        }
        let html = "<html><body><h1>The Age of Innocence</h1>\(contents)\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, expected)
        XCTAssertFalse(content.blocks.contains { $0.text.contains("CHAPTER") || $0.text.contains("CONTENTS") })
    }

    /// A year under a part's title (`1703.`) is no chapter's numeral: the
    /// part, in bold and giving no page, holds its chapters.
    func testAYearUnderAPartsTitleNumbersNothing() {
        let words = "<p>" + String(repeating: "On the night of Friday, the door of a miserable habitation opened. ", count: 4) + "</p>"
        let epochs = [("EPOCH THE FIRST.", "1703.", "JONATHAN WILD.", ["I", "II"]), ("EPOCH THE SECOND.", "1715.", "THAMES DARRELL.", ["III", "IV"])]
        var rows = "", body = "", page = 1
        for (number, (epoch, year, name, chapters)) in epochs.enumerated() {
            rows += "<tr><td colspan='3'><b><a href=\"#E\(number)\">\(epoch.dropLast()), \(year) \(name)</a></b></td></tr>"
            body += "<p><a name=\"E\(number)\" id=\"E\(number)\" /></p><h2>\(epoch)</h2><h3>\(year)</h3><h3>\(name)</h3>"
            for chapter in chapters {
                page += 9
                rows += "<tr><td>\(chapter).</td><td><a href=\"#C\(chapter)\">The Widow</a></td><td>\(page)</td></tr>"
                body += "<h2><a name=\"C\(chapter)\" id=\"C\(chapter)\"></a>CHAPTER \(chapter).</h2>\(words)"
            }
        }
        let html = "<html><body><h2>CONTENTS.</h2><table>\(rows)</table>\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 EPOCH THE FIRST.", "1 CHAPTER I.", "1 CHAPTER II.", "0 EPOCH THE SECOND.", "1 CHAPTER III.", "1 CHAPTER IV."])
        XCTAssertNil(HeadingPattern.numberAlone("1703."))
        XCTAssertEqual(HeadingPattern.numberAlone("154.")?.number, 154)
        XCTAssertNil(HeadingPattern.numberedTitle("1848. The Revolution"))
        XCTAssertEqual(HeadingPattern.numberedTitle("12. The Bull")?.number, 12)
    }

    /// A contents indents its rows by inline style as often as by class
    /// (`<span style="margin-left: 2em">` around a row's title, its page's
    /// link in the next cell; around the link itself): an indented row
    /// stands under the row before it, whatever its heading's tag, and
    /// an introduction in a flat list beside what follows it.
    func testRowsIndentedByTheirStyleStandUnderTheRowBefore() {
        let words = "<p>" + String(repeating: "The day was fine and the crowd was great at the heights. ", count: 4) + "</p>"
        let rows: [(title: String, indent: String?, tag: Int)] = [
            ("Introduction", nil, 2), ("Preliminary Steps", nil, 3), ("Celebrating the Day", nil, 3), ("Representatives Present", "2em", 3),
            ("Floral Decorations", "32px", 3), ("The Speeches", nil, 3), ("Colonel Ryerson", "margin-left: 2em", 4),
            ("Mr. Macdonell", "padding-left:2.2em", 4), ("Appendix", nil, 2),
        ]
        var table = "", linked = "", body = "<h1>THE CENTENARY</h1>"
        for (index, row) in rows.enumerated() {
            let style = row.indent.map { $0.contains(":") ? $0 : "margin-left: \($0)" }
            let title = style.map { "<span style=\"\($0);\">\(row.title)</span>" } ?? row.title
            table += "<tr><td>\(title)</td><td class=\"tdr\"><a href=\"#r\(index)\">\(index * 4 + 3)</a></td></tr>"
            let link = "<a href=\"#r\(index)\">\(row.title)</a>"
            linked += "<tr><td>\(style.map { "<span style=\"\($0)\">\(link)</span>" } ?? link)</td></tr>"
            body += "<h\(row.tag) id=\"r\(index)\">\(row.title.uppercased())</h\(row.tag)>\(words)"
        }
        let expected = ["0 INTRODUCTION", "0 PRELIMINARY STEPS", "0 CELEBRATING THE DAY", "1 REPRESENTATIVES PRESENT", "1 FLORAL DECORATIONS",
                        "0 THE SPEECHES", "1 COLONEL RYERSON", "1 MR. MACDONELL", "0 APPENDIX"]
        for contents in [table, linked] {
            let html = "<html><body><h2>CONTENTS</h2><table>\(contents)</table>\(body)</body></html>"
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, expected)
        }
        XCTAssertEqual(["margin-left: 3em", "MARGIN-LEFT:1.4EM", "padding-left: 48px", "margin-left: -2em", "margin-left: 10%", "margin-left: auto",
                        "color: red", "margin-left: 99999em"].map(HTMLBlocks.styleIndent), [3, 1, 3, 0, 0, 0, 0, 12])
    }

    /// Unnumbered entries of a flat list under a chapter stand under it, and
    /// those whose headings are in a deeper tag under those before them.
    func testDeeperTagsInARunUnderAChapterStandDeeper() {
        let words = "<p>" + String(repeating: "Der Traum ist die Erfüllung eines Wunsches, sagt man. ", count: 4) + "</p>"
        let entries = [("V. Das Traummaterial", 2), ("a) Das Rezente", 3), ("d) Typische Träume", 3), ("α) Der Verlegenheitstraum", 4),
                       ("β) Die Träume vom Tod", 4), ("VI. Die Traumarbeit", 2)]
        var contents = "", body = ""
        for (number, (title, tag)) in entries.enumerated() {
            contents += "<p class=\"toc\"><a href=\"#e\(number)\">\(title)</a></p>"
            body += "<h\(tag)><a name=\"e\(number)\"></a>\(title).</h\(tag)>\(words)"
        }
        let html = "<html><body><h1>DIE TRAUMDEUTUNG</h1>\(contents)\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.level), [0, 1, 1, 2, 2, 0])
    }

    /// A flat contents list's longer run of unnumbered entries between two
    /// chapters is the first one's parts (a treatise's topics), and a
    /// chapter heading too long for a pattern still says CHAPTER. Numerals
    /// counted afresh from one under a chapter its word names are its
    /// parts too, with the topics around them; numerals that go on from
    /// the chapter's own number are chapters.
    func testARunBetweenTwoChaptersIsTheChaptersParts() {
        let words = "<p>" + String(repeating: "When a man reasoneth, hee does nothing els. ", count: 4) + "</p>"
        let long = "CHAPTER II. " + String(repeating: "SHOWING HOW DODSON AND FOGG WERE MEN OF BUSINESS; ", count: 3)
        let entries = [("CHAPTER I. OF SENSE", 0), (long.trimmingWhitespace(), 0), ("Memory", 1), ("Dreams", 1), ("Apparitions Or Visions", 1),
                       ("CHAPTER III. OF SPEECH", 0), ("Originall Of Speech", 1), ("The Use Of Speech", 1), ("Abuses Of Speech", 1),
                       ("CHAPTER IV. OF REASON", 0),
                       ("CHAPTER V. OF THE RIGHTS OF SOVERAIGNES", 0), ("The Act Of Instituting A Common-wealth, What", 1),
                       ("I. The Subjects Cannot Change The Forme Of Government", 1), ("2. Soveraigne Power Cannot Be Forfeited", 1),
                       ("3. No Man Can Without Injustice Protest", 1), ("These Rights Are Indivisible", 1),
                       ("And Can By No Grant Passe Away", 1), ("The Power And Honour Of Subjects", 1),
                       ("CHAPTER VI. OF THE SEVERALL KINDS OF COMMON-WEALTH", 0)]
        let beginningWithTheirFirstTopic: Set = [1, 5, 10]
        func outline(_ entries: [(String, Int)], empty: Set<Int>) -> [String] {
            var contents = "", body = ""
            for (number, (title, _)) in entries.enumerated() {
                contents += "<p class=\"toc\"><a href=\"#e\(number)\"> \(title) </a></p>"
                body += "<p><a name=\"e\(number)\"></a></p><h2>\(title)</h2>" + (empty.contains(number) ? "" : words)
            }
            let html = "<html><body><h1>LEVIATHAN</h1>\(contents)\(body)</body></html>"
            return GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }
        }
        XCTAssertEqual(outline(entries, empty: beginningWithTheirFirstTopic), entries.map { "\($0.1) \($0.0)" })
        let chapters = [("CHAPTER I. OF SENSE", 0), ("II. Of Imagination", 0), ("III. Of The Consequence Of Imaginations", 0)]
        XCTAssertEqual(outline(chapters, empty: []), chapters.map { "\($0.1) \($0.0)" })
    }

    /// A contents printed at the end of the book (a Spanish book's ÍNDICE)
    /// links back to its pages in the book's order: it goes, its title and
    /// its groups' headings with it, and the printer's line after it
    /// stays. The same entries in another order are an index, and stay.
    func testAContentsAtTheEndLinkingBackToItsPagesInOrderGoes() {
        let words = "<p>" + String(repeating: "Del cubierto y sitio que deben ocupar los convidados. ", count: 6) + "</p>"
        let titles = ["Al lector", "De la cocina", "Del cocinero", "De la cocinera", "Bateria de cocina", "Servicio del café"]
        var body = ""
        for (page, title) in titles.enumerated() {
            body += "<h2>\(title.uppercased()).</h2><p>Lo que se ha de saber primero. <span class=\"pagenum\"><a id=\"page_\(page + 1)\">"
                + "[\(page + 1)]</a></span> Y lo que sigue en su página.</p>\(words)"
        }
        func book(_ order: [Int]) -> BookContent {
            func rows(_ positions: ArraySlice<Int>) -> String {
                positions.map { "<tr><td>\(titles[$0])</td><td><a href=\"#page_\($0 + 1)\">\($0 + 1)</a></td></tr>" }.joined()
            }
            let contents = "<h2>ÍNDICE</h2><hr /><h3>I</h3><table>\(rows(order.prefix(3)))</table><h3>II</h3><table>\(rows(order.dropFirst(3)))</table>"
            let html = "<html><body><h1>COCINA MODERNA</h1>\(body)\(contents)<p>Paris.―Typ. H. GARNIER, 6, rue des Saints-Pères.</p></body></html>"
            return GutenbergHTML.content(of: Array(html.utf8)).content
        }
        let inOrder = book(Array(titles.indices))
        XCTAssertEqual(inOrder.sections.map(\.title), titles.map { "\($0.uppercased())." })
        XCTAssertFalse(inOrder.blocks.contains { ["ÍNDICE", "I", "II"].contains($0.text) || $0.text.contains("Al lector") }, "\(inOrder.blocks.suffix(4))")
        XCTAssertEqual(inOrder.blocks.last?.text, "Paris.―Typ. H. GARNIER, 6, rue des Saints-Pères.")
        let alphabetical = book([4, 0, 1, 5, 2, 3])
        XCTAssertTrue(alphabetical.blocks.contains { $0.text.contains("Al lector") }, "an index stays")
    }

    /// A contents printed after the text, its chapters by page in the
    /// book's order and its treatises by name, names the heading on each
    /// page that reads as its entry or says its number and no more
    /// (`CAPITOLO II` for `II.—Come el desiderio …`): every chapter is a
    /// section under its treatise.
    func testAContentsAtTheEndNamesTheHeadingsOnItsPagesByTheirNumbers() {
        let words = "<p>" + String(repeating: "Come l’anima per orazione s’unisce con Dio, e come questa anima ne parla. ", count: 6) + "</p>"
        let summaries = ["Come l’anima per orazione s’unisce con Dio", "Come el desiderio di questa anima crebbe",
                         "Qui comincia el tractato de la discrezione", "Similitudine come la caritá e l’umilitá sono unite"]
        let numerals = ["I", "II", "III", "IV"]
        let treatises = [1: ("perfezione", "TRACTATO DE LA PERFEZIONE"), 3: ("discrezione", "TRACTATO DE LA DISCREZIONE")]
        var body = "<h1>LIBRO DELLA DIVINA DOTTRINA</h1><p><span class=\"pagenum\"><a id=\"Page_III\">[III]</a></span></p><h2>PROEMIO</h2>\(words)"
        var rows = "<tr><td colspan=\"2\">PROEMIO.</td><td><a href=\"#Page_III\">III</a></td></tr>"
        for (index, numeral) in numerals.enumerated() {
            if let (id, title) = treatises[index + 1] {
                body += "<h2><a id=\"\(id)\"></a>\(title)</h2>"
                rows += "<tr><td colspan=\"3\"><a href=\"#\(id)\">\(title)</a></td></tr>"
            }
            // A note's mark in a heading is none of its words.
            let mark = index == 1 ? "<a id=\"FNanchor_1\" href=\"#Footnote_1\">[1]</a>" : ""
            body += "<p><span class=\"pagenum\"><a id=\"Page_\(index + 3)\">[\(index + 3)]</a></span></p><h2>CAPITOLO \(numeral)\(mark)</h2>\(words)"
            rows += "<tr><td>\(numeral).</td><td>—\(summaries[index])</td><td>pag. <a href=\"#Page_\(index + 3)\">\(index + 3)</a></td></tr>"
        }
        body += "<div class=\"footnote\"><p><a id=\"Footnote_1\" href=\"#FNanchor_1\">[1]</a> Il codice senese legge altrimenti.</p></div>"
        let html = "<html><body>\(body)<h2>INDICE</h2><table class=\"toc\">\(rows)</table></body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.first?.title, "PROEMIO", "paged in roman figures")
        XCTAssertEqual(content.sections.dropFirst().map { "\($0.level) \($0.title)" }, ["0 TRACTATO DE LA PERFEZIONE", "1 CAPITOLO I", "1 CAPITOLO II",
                                                                                      "0 TRACTATO DE LA DISCREZIONE", "1 CAPITOLO III", "1 CAPITOLO IV"])
        XCTAssertFalse(content.blocks.contains { $0.text.contains("INDICE") || $0.text.contains("Similitudine") })
    }

    /// A paragraph that opens with a cross-reference in words and goes on
    /// as a sentence (`<a href="#Baba">Baba Yaga</a> came home just
    /// then.`, a manual's `<a>First call</a> is the first signal …`) is
    /// the book's text, whatever it links to; a list's entries whose
    /// words run on to their page (`A Formal Dinner facing page 177`) and
    /// the contents go as before.
    func testAParagraphOpeningWithACrossReferenceIsText() {
        let names = ["Baba Yaga", "First call", "The Tsar father", "Mess", "Guard mounting"]
        let goesOn = ["came home just then.", "is the first signal for formation for roll call.", "was pleased and thanked him.",
                      ", <a href=\"#h2\">church</a>, and <a href=\"#h3\">fatigue</a>, classed as service calls, may also be used.",
                      "\u{A0}is the first signal for guard mounting."]
        var contents = "<h2>CONTENTS</h2>", pictures = "<h2>ILLUSTRATIONS</h2>", body = ""
        for index in 1...4 {
            contents += "<p><a href=\"#h\(index)\">CHAPTER \(index).</a> The journey goes on.</p>"
            pictures += "<p><a href=\"#i\(index)\">A Formal Dinner \(index)</a> facing page \(index * 40)</p>"
            body += "<h2 id=\"h\(index)\">CHAPTER \(index).</h2><p>" + String(repeating: "The road was long and the night cold. ", count: 8) + "</p>"
            body += "<p id=\"i\(index)\"><img src=\"images/i\(index).jpg\" alt=\"\"></p>"
            for (name, words) in zip(names, goesOn) {
                body += "<p><a href=\"#h\(index % 4 + 1)\">\(name)</a>\(words.hasPrefix(",") ? "" : " ")\(words)</p>"
            }
        }
        let html = "<html><body><h1>THE TALES</h1>\(contents)\(pictures)\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        let text = content.blocks.map(\.text)
        for (name, words) in zip(names, goesOn) {
            let first = words.hasPrefix(",") ? "Mess, church, and fatigue, classed" : "\(name) \(words.trimmingCharacters(in: .whitespaces).prefix(12))"
            XCTAssertEqual(text.count { $0.hasPrefix(first) }, 4, "\(name): kept in every chapter")
        }
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER 1.", "CHAPTER 2.", "CHAPTER 3.", "CHAPTER 4."])
        XCTAssertFalse(text.contains { $0.contains("CONTENTS") || $0.contains("journey") || $0.contains("facing page") || $0.contains("ILLUSTRATIONS") })
    }

    /// A contents under its title after the text whose entries begin with
    /// a link back to their headings (`<a href="#l1">1re Leçon.</a>--Exposition
    /// du but de ce cours …`) names each of them, across the rule between
    /// an anchor and its heading, whatever its title's second line says.
    func testAContentsAtTheEndWhoseEntriesBeginWithTheirLinksNamesTheirHeadings() {
        let words = "<p>" + String(repeating: "Exposition du but de ce cours, ou considérations générales. ", count: 6) + "</p>"
        let ordinals = ["PREMIÈRE", "DEUXIÈME", "TROISIÈME"]
        var body = "<h1>COURS</h1><h2>PHILOSOPHIE POSITIVE.</h2><a id=\"c1\"></a><h3>AVERTISSEMENT DE L'AUTEUR.</h3>\(words)"
        var contents = "<h3>TABLE DES MATIÈRES<br>CONTENUES DANS LE TOME PREMIER.</h3><p><a href=\"#c1\">Avertissement de l'auteur.</a></p>"
        for (index, ordinal) in ordinals.enumerated() {
            body += "<a id=\"l\(index + 1)\"></a><br><hr class=\"full\"><br><h3>\(ordinal) LEÇON.</h3>\(words)"
            contents += "<p><a href=\"#l\(index + 1)\">\(index + 1)e Leçon.</a>--Considérations générales sur la nature et l'importance "
                + "de la philosophie positive.</p>"
        }
        let html = "<html><body>\(body)\(contents)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["AVERTISSEMENT DE L'AUTEUR.", "PREMIÈRE LEÇON.", "DEUXIÈME LEÇON.", "TROISIÈME LEÇON."])
        XCTAssertFalse(content.blocks.contains { $0.text.contains("TABLE DES MATIÈRES") || $0.text.contains("1e Leçon") })
    }

    /// An analytic contents (`§ 1. | In der Mathematik ist … | 1`, each
    /// page number a link to its paragraph) opens a section at each
    /// paragraph under the row's words, its number's cell with them; the
    /// rows without a link (`I. Meinungen …`, `Sind die Zahlformeln
    /// beweisbar?`) are the headings that hold them, the shallower tag
    /// above the deeper.
    func testAnAnalyticContentsOpensItsParagraphsUnderTheHeadingsItsRowsName() {
        let words = String(repeating: " Nachdem die Mathematik sich eine Zeit lang von der euklidischen Strenge entfernt hatte.", count: 4)
        let summaries = ["In der Mathematik ist ein Bestreben erkennbar.", "Die Aufgabe dieses Buches.", "Kant verneint dies.",
                         "Mills Naturgesetz.", "Ist die Anzahl eine Eigenschaft?"]
        let groups: [Int: [(tag: Int, title: String)]] = [
            3: [(2, "I. Meinungen einiger Schriftsteller über die Natur der arithmetischen Sätze."), (3, "Sind die Zahlformeln beweisbar?")],
            4: [(3, "Sind die Gesetze der Arithmetik inductive Wahrheiten?")],
            5: [(2, "II. Meinungen einiger Schriftsteller über den Begriff der Anzahl."), (3, "Ist die Anzahl eine Eigenschaft der Dinge?")],
        ]
        var rows = "", body = "<h1>DIE GRUNDLAGEN DER ARITHMETIK</h1><h2>Inhalt.</h2>"
        var text = "<h2>Einleitung.</h2>", expected: [String] = []
        for (index, summary) in summaries.enumerated() {
            for group in groups[index + 1] ?? [] {
                rows += "<tr><td></td><td class=\"tdpc\">\(group.title)</td><td></td></tr>"
                text += "<h\(group.tag)>\(group.title)</h\(group.tag)>"
                expected.append("\(group.tag - 2) \(group.title)")
            }
            rows += "<tr><td>§ \(index + 1).</td><td>\(summary)</td><td><a href=\"#para_\(index + 1)\">\(index * 2 + 1)</a></td></tr>"
            text += "<p id=\"para_\(index + 1)\">§ \(index + 1).\(words)</p><p>\(words)</p>"
            expected.append("2 § \(index + 1). \(summary)")
        }
        let html = "<html><body>\(body)<table>\(rows)</table>\(text)</body></html>"
        let sections = GutenbergHTML.content(of: Array(html.utf8)).content.sections.filter { $0.title.hasPrefix("§") || $0.title.contains("?") || $0.title.contains("Meinungen") }
        XCTAssertEqual(sections.map { "\($0.level - (sections.map(\.level).min() ?? 0)) \($0.title)" }, expected)
    }

    /// Between two lists of a contents under its title, every row without
    /// a link goes with it (`CHAPITRE II.`, `SECTION Ire.`, a division's
    /// title of seven words), not only the last; words between two lists
    /// that are no rows stay.
    func testTheRowsBetweenAContentsListsGoWithIt() {
        let words = "<p>" + String(repeating: "On appelle ces cordages bras; ils servent d'écoute. ", count: 6) + "</p>"
        var body = ""
        for page in 1...4 { body += "<h3>TITRE \(page).</h3><p><span class=\"pagenum\"><a id=\"Page_\(page)\">\(page)</a></span></p>\(words)" }
        func table(_ pages: ClosedRange<Int>) -> String {
            "<table>" + pages.map { "<tr><td>Titre \($0).</td><td><a href=\"#Page_\($0)\">\($0)</a></td></tr>" }.joined() + "</table>"
        }
        func book(between: String) -> [String] {
            let html = "<html><body><h1>MANUEL</h1>\(body)<h2>TABLE DES MATIÈRES</h2>\(table(1...2))\(between)\(table(3...4))</body></html>"
            return GutenbergHTML.content(of: Array(html.utf8)).content.blocks.map(\.text)
        }
        let rows = ["CHAPITRE II.", "SECTION Ire.", "Des Manœuvres qui n'appartiennent pas au Gréement."]
        let texts = book(between: rows.map { "<p>\($0)</p>" }.joined())
        XCTAssertFalse(texts.contains { text in rows.contains { text.contains($0) } }, "\(texts.suffix(4))")
        let paragraph = "Le lougre ainsi disposé a la voilure d'un chasse-marée, et ses voiles se règlent comme celles des autres navires."
        XCTAssertTrue(book(between: "<p>CHAPITRE II.</p><p>\(paragraph)</p>").contains(paragraph))
    }

    /// A contents list set in heading tags (`<h4>Chapter II.<br><a
    /// href="#p1-02">Of The Voice.</a></h4>`) is a contents list: its
    /// entries name the sections and none of them is a section itself.
    func testAContentsListInHeadingTagsIsNoOutline() {
        let words = "<p>" + String(repeating: "The voice is the organ of the sentiment. ", count: 4) + "</p>"
        var contents = "<h2>Contents.</h2><h4><a href=\"#bio\">Biographical Sketch</a></h4>", body = "<div id=\"bio\"><h3>François Delsarte.</h3>\(words)</div>"
        var expected = ["0 François Delsarte."]
        for (part, ordinal) in [(1, "First"), (2, "Second")] {
            contents += "<h3><a href=\"#p\(part)\">Part \(ordinal).</a><br />Voice</h3>"
            body += "<div class=\"part\" id=\"p\(part)\"><h2>Part \(ordinal).<br />Voice</h2>"
            expected.append("0 Part \(ordinal). Voice")
            for chapter in 1...3 {
                contents += "<h4>Chapter \(chapter).<br /> <a href=\"#p\(part)-\(chapter)\">Of The \(chapter) Voice.</a></h4>"
                body += "<div class=\"chapter\" id=\"p\(part)-\(chapter)\"><h3>Chapter \(chapter).<br />Of The \(chapter) Voice.</h3>\(words)</div>"
                expected.append("1 Chapter \(chapter). Of The \(chapter) Voice.")
            }
            body += "</div>"
        }
        let html = "<html><body><h1>Delsarte System of Oratory</h1>\(contents)\(body)</body></html>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, expected)
        XCTAssertEqual(content.blocks.filter { $0.text.contains("Of The 1 Voice") }.count, 2, "the two chapters' headings alone")
    }

    /// A heading that links back to its contents entry is a heading, however
    /// many entries the list has.
    func testHeadingsLinkingBackToALongContentsListAreHeadings() {
        let words = "<p>" + String(repeating: "All for one, one for all. ", count: 4) + "</p>"
        let chapters = 1...80
        let contents = chapters.map { "<li><p><a href=\"#c\($0)\" id=\"toc\($0)\">\($0) THE \($0) TITLE</a></p></li>" }.joined()
        let body = chapters.map { "<div id=\"c\($0)\"><h2><a href=\"#toc\($0)\"><span>\($0) THE \($0) TITLE</span></a></h2>\(words)</div>" }.joined()
        let html = "<html><body><h2>CONTENTS</h2><ul>\(contents)</ul>\(body)</body></html>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.title), chapters.map { "\($0) THE \($0) TITLE" })
    }

    /// Books and parts nest in the order the book first names them: a
    /// treatise's BOOK I holds its PART I, a novel's PART FIRST its BOOK I,
    /// though every heading sits in one tag and a flat contents list names
    /// them all (or there is none, and its chapters say CHAPTER).
    func testBooksAndPartsNestInTheOrderTheBookNamesThem() {
        let words = "<p>" + String(repeating: "Words of the section run on here. ", count: 4) + "</p>"
        for (outer, inner) in [("BOOK", "PART"), ("PART", "BOOK")] {
            for section in ["SECT.", "CHAPTER"] {
                var expected: [String] = [], body = "", contents = ""
                for (number, heading) in ["\(outer) I. OF ONE", "\(inner) I. OF TWO", "\(section) I. OF THREE", "\(section) II. OF FOUR",
                                           "\(section) III. OF FIVE", "\(inner) II. OF SIX", "\(section) I. OF SEVEN", "\(section) II. OF EIGHT",
                                           "\(section) III. OF NINE", "\(outer) II. OF TEN", "\(inner) I. OF ELEVEN", "\(section) I. OF TWELVE",
                                           "\(section) II. OF THIRTEEN", "\(section) III. OF FOURTEEN"].enumerated() {
                    let level = heading.hasPrefix(outer) ? 0 : heading.hasPrefix(inner) ? 1 : 2
                    body += "<h2 id=\"s\(number)\">\(heading)</h2>" + (level == 2 ? words : "")
                    contents += "<p class=\"toc\"><a href=\"#s\(number)\">\(heading)</a></p>"
                    expected.append("\(level) \(heading)")
                }
                let listed = section == "SECT." ? "<h2>CONTENTS</h2>\(contents)" : ""
                let html = "<html><body><h1>A TREATISE</h1>\(listed)\(body)</body></html>"
                XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map { "\($0.level) \($0.title)" }, expected,
                               "\(outer) above \(inner), \(section)")
            }
        }
    }

    /// Page numbers of every style go with the anchors that name pages,
    /// and only they: a citation's `[p. 111]` and the words an anchor
    /// wraps stay.
    func testPageNumbersOfEveryStyleGoAndOnlyThey() {
        let marks = ["<a id=\"Page_12\">[pg 012]</a>", "<a name=\"pg13\">{13}</a>", "<span id=\"page-xiv\">[xiv]</span>",
                     "<a id=\"p15\">[Pg 15]</a>", "<a name=\"Page_16\" id=\"Page_16\">16</a>", "<span class=\"pagenum\">[17]</span>"]
        var html = "<html><body><h2>CHAPTER I.</h2>"
        for mark in marks { html += "<p>Before the page \(mark) after the page, as Griesinger [p. 111] says.</p>" }
        html += "<p><a name=\"page18\">Wrapped</a> words stay.</p></body></html>"
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks.filter { $0.kind == .prose }
        XCTAssertEqual(blocks.map(\.text), Array(repeating: "Before the page after the page, as Griesinger [p. 111] says.", count: marks.count) + ["Wrapped words stay."])
    }

    // MARK: - Generated books

    /// Books of one to three levels, headings in any tag, with and
    /// without a contents list, with title pages and closing lines: the
    /// outline is the one they were made with.
    func testGeneratedBooksGiveTheOutlineTheyWereMadeWith() {
        var generator = SeededGenerator(seed: 31)
        for round in 0..<120 {
            let book = GeneratedBook.random(using: &generator)
            let html = book.html(withContents: round % 2 == 0, using: &generator)
            let content = GutenbergHTML.content(of: Array(html.utf8)).content
            let found = content.sections.map { "\($0.level) \($0.title)" }
            XCTAssertEqual(found, book.outline, "round \(round):\n\(html.prefix(3_000))")
        }
    }

    /// A chapter's number and its title in two heading tags, one after the
    /// other, are one section; a motto under a chapter's heading is text.
    func testASubtitleHeadingNamesTheChapterAndAMottoStaysText() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<html><body><h1>THE BOOK</h1>"
        for number in 1...4 { html += "<h2>Chapter \(number)</h2><h3>THE \(number) TITLE</h3>" + paragraph }
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), (1...4).map { "Chapter \($0). THE \($0) TITLE" })
        var listed = "<html><body><h1>THE BOOK</h1>"
        for number in 1...4 { listed += "<p><a href=\"#c\(number)\">Chapter \(number)</a></p>" }
        for number in 1...4 { listed += "<h2 id=\"c\(number)\">Chapter \(number)</h2><h3>THE \(number) TITLE</h3>" + paragraph }
        XCTAssertEqual(GutenbergHTML.content(of: Array(listed.utf8)).content.sections.map(\.title), (1...4).map { "Chapter \($0). THE \($0) TITLE" },
                       "the contents list links to the numbers alone")
        var motto = "<body>"
        for number in 1...3 { motto += "<h2>CHAPTER \(number). A Title</h2><h3>“A motto.” Job.</h3>" + paragraph }
        let withMotto = GutenbergHTML.content(of: Array(motto.utf8)).content
        XCTAssertEqual(withMotto.sections.map(\.title), (1...3).map { "CHAPTER \($0). A Title" })
        XCTAssertTrue(withMotto.blocks.contains { $0.kind == .lines && $0.text == "“A motto.” Job." })
    }

    /// A bare `CHAPTER I` is named by a deeper heading straight after it,
    /// though that tag serves elsewhere too (a title page's lines); not
    /// by one of several in that tag under it (an act's scenes).
    func testADeeperHeadingNamesABareChapterUnlessItHasSiblings() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<html><body><h1>THE BOOK</h1><p>With a preface.</p><h4>A CHARACTER STUDY</h4>"
        for number in 1...3 { html += "<h3>CHAPTER \(number)</h3><h4>THE \(number) TITLE</h4>" + paragraph }
        XCTAssertEqual(GutenbergHTML.content(of: Array(html.utf8)).content.sections.map(\.title).suffix(3),
                       (1...3).map { "CHAPTER \($0). THE \($0) TITLE" })
        var play = "<html><body><h1>THE PLAY</h1>"
        for act in 1...2 {
            play += "<h2>ACT \(act)</h2>"
            for scene in ["IN THE HALL", "IN THE GARDEN"] { play += "<h3>\(scene)</h3>" + paragraph }
        }
        XCTAssertEqual(GutenbergHTML.content(of: Array(play.utf8)).content.sections.map { "\($0.level) \($0.title)" },
                       ["0 ACT 1", "1 IN THE HALL", "1 IN THE GARDEN", "0 ACT 2", "1 IN THE HALL", "1 IN THE GARDEN"])
    }

    /// A paragraph of links to an edition's sound and score files (`[Listen]
    /// [PDF]`, `To listen … click here.`) is the edition's, not the book's.
    func testLinksToSoundsAndScoresAreNoText() {
        let html = """
            <html><body><h1>SONGS</h1><h2>GONE.</h2>
            <p>[<a href="music/gone.midi">Listen</a>] [<a href="music/gone.pdf">PDF</a>] [<a href="music/gone.ly">Lilypond</a>]</p>
            <p>Gone, gone, sold and gone.</p>
            <p class="caption">[To listen to this music (MIDI file) <a href="music/piece1.mid">click here</a>.]</p>
            <p>A picture of the <a href="images/big.jpg">singer</a> stays.</p>
            <table><tr><td><a href="music/tune.mid">Tune</a></td><td>Air</td></tr></table>
            <p>A short line after the table stays.</p>
            <h3>HEARD <a href="music/heard.mid">(the tune)</a></h3>A short line after the heading stays.<p>More.</p></body></html>
            """
        let texts = GutenbergHTML.content(of: Array(html.utf8)).content.blocks.map(\.text)
        XCTAssertEqual(texts.filter { $0.contains("Listen") || $0.contains("listen") || $0.contains("PDF") }, [])
        XCTAssertTrue(texts.contains("Gone, gone, sold and gone."))
        XCTAssertTrue(texts.contains("A picture of the singer stays."))
        XCTAssertTrue(texts.contains("A short line after the table stays."), "\(texts)")
        XCTAssertTrue(texts.contains("A short line after the heading stays."), "\(texts)")
    }

    /// Parts and their chapters in one tag: what the headings say decides
    /// their levels, and an epilogue stands beside the parts.
    func testPartsAndChaptersInOneTagAreNestedByWhatTheySay() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<body>"
        for part in ["ONE", "TWO"] {
            html += "<h2>BOOK \(part)</h2>"
            for chapter in ["I", "II", "III"] { html += "<h2>CHAPTER \(chapter)</h2>" + paragraph }
        }
        html += "<h2>EPILOGUE</h2>" + paragraph
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.level), [0, 1, 1, 1, 0, 1, 1, 1, 0])
        XCTAssertEqual(content.sections.last?.title, "EPILOGUE")
    }

    /// A heading tag inside a picture's frame is the picture's caption.
    func testAHeadingTagInAFigureIsItsCaption() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<body>"
        for number in 1...3 {
            html += "<h2>CHAPTER \(number)</h2>" + paragraph
                + "<div class=\"figcenter\"><img src=\"images/\(number).jpg\" alt=\"\"><h4>“She ran away,” said he.</h4></div>" + paragraph
        }
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3"])
        XCTAssertEqual(content.blocks.filter { $0.kind == .illustration }.map(\.text), Array(repeating: "“She ran away,” said he.", count: 3))
    }

    /// A caption set under its picture, in the element that holds it, that
    /// says again the picture's `alt` (in a heading's tag or a paragraph,
    /// its case and stops its own) is said once, as the picture's; a
    /// chapter's heading drawn above it stays the chapter's heading, and
    /// so does a story's title after the figure that illustrates it.
    func testACaptionThatRepeatsItsPicturesAltIsSaidOnce() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<body>"
        for (number, tag) in ["h4", "p", "h3"].enumerated() {
            html += "<h2>CHAPTER \(number + 1)</h2>" + paragraph
                + "<center><img src=\"images/\(number).jpg\" alt=\"&quot;ASK YOUR SISTER,&quot; SHE REPLIED.\">"
                + "<\(tag)>\u{201C}Ask your sister,\u{201D} she replied</\(tag)></center>" + paragraph
        }
        html += "<div><img src=\"images/c4.jpg\" alt=\"Chapter 4\"><h2>CHAPTER 4.</h2>" + paragraph + "</div>"
        for container in ["div class=\"figure\"", "p"] {
            html += "<\(container)><img src=\"images/m.jpg\" alt=\"The Mermaid of Zennor\"></\(container.prefix { $0 != " " })>"
                + "<h2>THE MERMAID OF ZENNOR</h2>" + paragraph
        }
        // In a chapter's frame that holds an earlier picture too.
        html += "<div class=\"chapter\"><img src=\"images/o.png\" alt=\"An ornament\">" + paragraph
            + "<div class=\"figure\"><img src=\"images/m.jpg\" alt=\"The Mermaid of Zennor\"></div><h2>THE MERMAID OF ZENNOR</h2>" + paragraph
        html += "</div></body>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title),
                       ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3", "CHAPTER 4."] + Array(repeating: "THE MERMAID OF ZENNOR", count: 3))
        XCTAssertEqual(content.blocks.filter { $0.kind == .illustration }.map(\.text),
                       Array(repeating: "\"ASK YOUR SISTER,\" SHE REPLIED.", count: 3)
                        + ["", "The Mermaid of Zennor", "The Mermaid of Zennor", "An ornament", "The Mermaid of Zennor"])
        XCTAssertFalse(content.blocks.contains { $0.kind != .illustration && $0.text.lowercased().contains("sister") })
    }

    /// A line between a contents list's title and its first entry (the
    /// first entry's number set apart, the page column's `Blz.`, an
    /// ornament) goes, and the title with it; a chapter whose anchor stands before the book's
    /// title said again is found by its number and the subtitle under it.
    func testAContentsTitleGoesThoughALineStandsBetweenItAndTheList() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        let titles = ["LOUISIANA", "WORTH", "A NEW TYPE"]
        var numbered = "<p class=\"t2\">CONTENTS.</p>"
        for (number, title) in titles.enumerated() {
            numbered += "<p class=\"contents\">CHAPTER \(number + 1).</p><p class=\"contents\"><a href=\"#chap\(number)\">\(title)</a></p>"
        }
        var tabled = "<h2>INHOUD</h2><p>&nbsp;&nbsp; Blz.</p><table>"
        for (number, title) in titles.enumerated() {
            let ditto = number == 0 ? "Hoofdstuk" : "<table><tr><td>Hoofdstuk</td></tr><tr><td>,,</td></tr></table>"
            tabled += "<tr><td>\(ditto) \(number + 1).</td><td><a href=\"#chap\(number)\">\(title)</a></td><td>\(number * 10 + 5)</td></tr>"
        }
        tabled += "</table>"
        // A list's ornament, a picture without words, under its title.
        let ornamented = "<h2><a name=\"CONTENTS\"></a>CONTENTS.</h2><div class=\"figcenter\"><img src=\"images/p004.png\" alt=\"\"></div>"
            + "<table>" + titles.enumerated().map { "<tr><td>\($0.offset + 1).</td><td><a href=\"#chap\($0.offset)\">\($0.element)</a></td><td>\($0.offset * 12 + 7)</td></tr>" }.joined() + "</table>"
        for contents in [numbered, tabled, ornamented] {
            var html = "<body><p>LOUISIANA</p><p>BY FRANCES HODGSON BURNETT</p>" + contents
            for (number, title) in titles.enumerated() {
                html += "<a name=\"chap\(number)\"></a>" + (number == 0 ? "<p>LOUISIANA.</p>" : "")
                    + "<h3>CHAPTER \(number + 1).</h3><h4>\(title).</h4>" + paragraph
            }
            let content = GutenbergHTML.content(of: Array((html + "</body>").utf8)).content
            XCTAssertEqual(content.sections.map(\.title), ["CHAPTER 1. LOUISIANA.", "CHAPTER 2. WORTH.", "CHAPTER 3. A NEW TYPE."], contents)
            XCTAssertEqual(content.blocks.prefix(3).map(\.text), ["LOUISIANA", "BY FRANCES HODGSON BURNETT", "LOUISIANA."], contents)
        }
    }

    /// A table in a table's cell (a ditto mark's `Hoofdstuk` over `,,`) is
    /// the cell's text: the rows around it stay rows, in their order.
    func testATableInACellIsTheCellsText() {
        let html = """
            <body><p>Before.</p><table><tr><td>a</td><td>b</td></tr>
            <tr><td>Hoofdstuk<table><tr><td>x</td></tr><tr><td>,,</td></tr></table>II.</td><td>c</td></tr>
            <tr><td>d</td></tr></table><p>After.</p></body>
            """
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.map(\.text), ["Before.", "a  b\nHoofdstuk x ,, II.  c\nd", "After."])
    }

    /// A caption's line breaks are spaces between its words, in a
    /// caption's class or a heading's tag within the figure.
    func testACaptionsLineBreaksAreSpaces() {
        for caption in ["<span class='caption'>A pan of stew and bread<br/>and three spoons. <em>Frontispiece.</em></span>",
                        "<h4>A pan of stew and bread<br/>and three spoons. <em>Frontispiece.</em></h4>"] {
            let html = "<body><h2>CHAPTER I</h2><div class='figcenter'><img src='images/f.jpg' alt=''><br />\(caption)</div><p>Words.</p></body>"
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertEqual(blocks.filter { $0.kind == .illustration }.map(\.text), ["A pan of stew and bread and three spoons. Frontispiece."], caption)
        }
    }

    /// Two paragraphs that point to each other in words (`as we hope to
    /// show <a>later</a>`, `as we said <a>vroeger</a>`) are the book's
    /// paragraphs, not a reference and its note.
    func testParagraphsThatPointToEachOtherInWordsStayParagraphs() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 6)
        for (forward, back) in [("later", "vroeger"), ("below", "above"), ("hier", "earlier")] {
            let html = """
                <body><h2>CHAPTER I.</h2><p>\(words)<a id="c217"></a>As we hope to show <a href="#c245">\(forward)</a>, the talks failed.</p>
                <p>\(words)</p><h2>CHAPTER II.</h2><p>\(words)<a id="c245"></a>As we said <a href="#c217">\(back)</a>, it went so.</p></body>
                """
            let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
            XCTAssertEqual(blocks.filter { $0.kind == .footnote }.count, 0, "\(blocks)")
            XCTAssertEqual(blocks.filter { $0.kind == .prose && $0.text.contains("As we") }.count, 2, "\(blocks)")
        }
    }

    /// A contents table whose pages are bracketed like notes' marks
    /// (`[10]` linking to the page's anchor) is a contents table still.
    func testAContentsTableWithBracketedPagesGoesAsContents() {
        let words = String(repeating: "Words of the chapter run on here. ", count: 10)
        var html = "<body><h2>CONTENTS</h2><table>"
        for number in 1...3 {
            html += "<tr><td>CHAPTER \(number).</td><td>A Title \(number)</td><td><a href=\"#Page_\(number * 10)\">[\(number * 10)]</a></td></tr>"
        }
        html += "</table>"
        for number in 1...3 {
            html += "<p><span class=\"pagenum\"><a id=\"Page_\(number * 10)\">[\(number * 10)]</a></span></p><h2>CHAPTER \(number).</h2><p>\(words)</p>"
        }
        let content = GutenbergHTML.content(of: Array((html + "</body>").utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER 1.", "CHAPTER 2.", "CHAPTER 3."])
        XCTAssertFalse(content.blocks.contains { $0.text.contains("A Title") || $0.text == "CONTENTS" }, "\(content.blocks.prefix(3))")
    }

    /// A play: its persons in a larger tag than its acts stand beside the
    /// acts; scenes under the acts; a setting, in a tag of its own or in
    /// the scene's, names its scene.
    func testAPlaysPersonsActsAndScenes() {
        let speech = "<p>" + String(repeating: "A speech of some length, spoken here. ", count: 6) + "</p>"
        var html = "<body><h1>THE PLAY</h1><h2>DRAMATIS PERSONAE</h2><p>" + String(repeating: "A PERSON, a part. ", count: 8) + "</p>"
        for act in ["I", "II"] {
            html += "<h3>ACT \(act)</h3>"
            for (index, scene) in ["I", "II"].enumerated() {
                // The setting in a tag of its own, or in the scene's tag.
                html += "<h4>SCENE \(scene).</h4><h\(4 + index)>A room in the castle.</h\(4 + index)>" + speech
            }
        }
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        let scene = ["1 SCENE I. A room in the castle.", "1 SCENE II. A room in the castle."]
        XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, ["0 DRAMATIS PERSONAE", "0 ACT I"] + scene + ["0 ACT II"] + scene)
    }

    /// An anchor that closes the paragraph before a heading names that
    /// heading (older editions put it there).
    func testAContentsLinkToAnAnchorBeforeAHeadingFindsTheHeading() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<body><h1>A BOOK</h1><p><a href=\"#one\">The Beginning</a></p><p><a href=\"#two\">The Middle</a></p>"
        html += "<h2><a id=\"one\"></a>The Beginning</h2>" + paragraph
        html += "<p>The last words of it. <a name=\"two\" id=\"two\"></a></p>"
            + "<div class=\"figcenter\"><img src=\"images/p2.jpg\" alt=\"\"><p class=\"caption\">A picture before the chapter</p></div>"
            + "<h2>The Middle</h2>" + paragraph
        html += "<h2>Not Listed</h2>" + paragraph
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["The Beginning", "The Middle"], "the contents list names the sections")
        XCTAssertFalse(content.blocks.contains { $0.text == "The Middle" && $0.kind == .prose }, "the contents list is not text")
    }

    /// A chapter the contents list misses (a broken link) is still one
    /// among the chapters it lists; a heading of another kind is not.
    func testAChapterTheContentsListMissesIsStillAChapter() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<body><h1>A BOOK</h1>"
        for number in [1, 2, 4] { html += "<p><a href=\"#c\(number)\">Chapter \(number)</a></p>" }
        for number in 1...4 { html += "<h2 id=\"c\(number)\">CHAPTER \(number)</h2>" + paragraph }
        html += "<h2>A NOTE ON THE TEXT</h2>" + paragraph
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3", "CHAPTER 4"])
        // A dialogue is a division of its kind, in French as in English.
        var dialogues = "<body><h1>DIALOGUE AUX ENFERS</h1>"
        let ordinals = ["DEUXIÈME", "TROISIÈME", "QUATRIÈME", "CINQUIÈME"]
        for (number, ordinal) in ordinals.enumerated() where number != 2 {
            dialogues += "<p><a href=\"#d\(number)\">\(ordinal) DIALOGUE.</a></p>"
        }
        for (number, ordinal) in ordinals.enumerated() { dialogues += "<h2 id=\"d\(number)\">\(ordinal) DIALOGUE.</h2>" + paragraph }
        XCTAssertEqual(GutenbergHTML.content(of: Array(dialogues.utf8)).content.sections.map(\.title), ordinals.map { "\($0) DIALOGUE." })
    }

    /// A contents at the end that lists the chapters by their pages and
    /// links by name only to the errata and the transcriber's note names
    /// the back matter alone: the chapters' headings still outline the book.
    func testAContentsNamingOnlyTheBackMatterLeavesTheHeadings() {
        let paragraph = "<p>" + String(repeating: "Words of the chapter run on here. ", count: 10) + "</p>"
        var html = "<body><h1>A BOOK</h1>"
        for number in 1...3 { html += "<p><span class=\"pagenum\"><a id=\"Page_\(number)\">[\(number)]</a></span></p><h2>CHAPTER \(number)</h2>" + paragraph }
        html += "<h2 id=\"contents\">CONTENTS</h2><ul>"
        for number in 1...3 { html += "<li>Chapter \(number) <a href=\"#Page_\(number)\">\(number)</a></li>" }
        html += "<li><a href=\"#errata\">Errata</a></li><li><a href=\"#tnote\">Transcriber's note</a></li></ul>"
        html += "<h2 id=\"errata\">ERRATA</h2><p>Page 2: for teh read the.</p><h2 id=\"tnote\">TRANSCRIBER'S NOTE</h2><p>Spelling kept as printed.</p>"
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        XCTAssertEqual(content.sections.map(\.title).filter { $0.hasPrefix("CHAPTER") }, ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3"])
    }

    func testAnEditionWithoutHeadingsSaysSo() {
        let html = "<body><p>" + String(repeating: "Only words and no headings at all. ", count: 40) + "</p></body>"
        let made = GutenbergHTML.content(of: Array(html.utf8))
        XCTAssertFalse(made.hasOutline)
        XCTAssertEqual(made.content.sections.count, 1)
    }

    // MARK: - Hostile markup

    func testScriptsStylesCommentsAndEscapesNeverReachTheText() {
        let html = """
            <html><head><title>T</title><style>p { color: red }</style><script>alert("x")</script></head>
            <body><!-- a comment --><h2>CHAPTER I&#27;[2J</h2>
            <p>A \u{1B}]0;owned\u{07}line &#x1B;[31mwith &#x9B;tricks &#xE000;and&#xFEFF; marks.<script>document.write(1)</script></p>
            <noscript>no script</noscript><p>Second.</p></body></html>
            """
        let content = GutenbergHTML.content(of: Array(html.utf8)).content
        let text = content.blocks.map(\.text).joined(separator: "\n")
        for unwanted in ["alert", "color", "comment", "document", "no script", "owned", "\u{1B}", "\u{9B}", "\u{E000}", "\u{FEFF}"] {
            XCTAssertFalse(text.contains(unwanted), "\(unwanted.debugDescription) in \(text.debugDescription)")
        }
        XCTAssertTrue(text.contains("Second."))
    }

    func testDeepNestingManyHeadingsAndHugeAttributesAreBounded() {
        let deep = String(repeating: "<div>", count: 100_000) + "deep words" + String(repeating: "</div>", count: 100_000)
        let nested = GutenbergHTML.content(of: Array(deep.utf8)).content
        XCTAssertLessThanOrEqual(nested.blocks.count, 10)
        var many = "<body>"
        for number in 1...30_000 { many += "<h2>CHAPTER \(number)</h2><p>Words enough to keep this chapter as a real one here.</p>" }
        let flood = GutenbergHTML.content(of: Array(many.utf8))
        XCTAssertFalse(flood.hasOutline, "a flood of headings is no outline")
        XCTAssertLessThanOrEqual(flood.content.sections.count, 1)
        let attribute = "<body><h2 id=\"" + String(repeating: "a", count: 5_000_000) + "\">CHAPTER I</h2><p>Text.</p></body>"
        XCTAssertEqual(GutenbergHTML.content(of: Array(attribute.utf8)).content.blocks.last?.text, "Text.")
    }

    /// The parse runs ahead of the walk on a thread of its own, a few
    /// blocks of events at most: a book many times that long, and a text
    /// longer than one block, still arrive whole and in order.
    func testALongEditionArrivesWholeAndInOrder() {
        var html = "<body>"
        var expected: [String] = []
        for number in 1...60_000 {
            let paragraph = "Paragraph \(number) with <i>words</i> &amp; an <a href=\"#n\(number)\">entity</a>."
            html += "<p class=\"c\(number % 7)\" id=\"p\(number)\">\(paragraph)</p>\n"
            expected.append("Paragraph \(number) with _words_ & an entity.")
        }
        let long = (1...200_000).map { "word\($0)" }.joined(separator: " ")
        html += "<p>\(long)</p></body>"
        expected.append(long)
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertGreaterThan(html.utf8.count, 8 * 256 * 1024, "longer than the events the parse may keep waiting")
        let words = blocks.map(\.text).joined(separator: " ").split(separator: " ")
        let expectedWords = expected.joined(separator: " ").split(separator: " ")
        XCTAssertEqual(words.count, expectedWords.count)
        let firstDifference = zip(words.indices, zip(words, expectedWords)).first { $0.1.0 != $0.1.1 }
        XCTAssertNil(firstDifference.map { "word \($0.0) is \($0.1.0), not \($0.1.1)" })
    }

    func testALatin1EditionIsReadByItsBytes() {
        let html = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"></head>"
            + "<body><h2>CHAPITRE I</h2><p>D\u{E9}j\u{E0} \u{93}vu\u{94}.</p></body></html>"
        let bytes = html.unicodeScalars.map { UInt8($0.value) }
        let (content, encoding, _) = GutenbergHTML.content(of: bytes)
        XCTAssertEqual(encoding, .windows1252)
        XCTAssertEqual(content.blocks.last?.text, "Déjà “vu”.")
    }
}

/// A book made up for a test: its levels of headings, the tags they are
/// in, its front matter, and the outline a reader should see.
struct GeneratedBook {
    struct Heading {
        var level: Int
        var title: String
    }

    var headings: [Heading]
    var tags: [Int]
    var titlePage: Bool

    var outline: [String] { headings.map { "\($0.level) \($0.title)" } }

    static func random(using generator: inout SeededGenerator) -> GeneratedBook {
        let levels = Int.random(in: 1...3, using: &generator)
        let firstTag = Int.random(in: 1...3, using: &generator)
        let tags = (0..<levels).map { firstTag + $0 }
        let kinds = [["VOLUME", "BOOK", "CHAPTER"], ["PART", "CHAPTER"], ["CHAPTER"]].first { $0.count >= levels }!.suffix(levels)
        var headings: [Heading] = []
        var numbers = [Int](repeating: 0, count: levels)
        func add(level: Int) {
            numbers[level] += 1
            for deeper in (level + 1)..<max(level + 1, levels) { numbers[deeper] = 0 }
            let kind = Array(kinds)[level]
            let styles = ["\(kind) \(numbers[level])", "\(kind) \(roman(numbers[level])).", "\(kind.capitalized) \(numbers[level]): A Title"]
            headings.append(Heading(level: level, title: styles[Int.random(in: 0..<styles.count, using: &generator)]))
            if level + 1 < levels {
                for _ in 0..<Int.random(in: 1...3, using: &generator) { add(level: level + 1) }
            }
        }
        for _ in 0..<Int.random(in: 2...4, using: &generator) { add(level: 0) }
        return GeneratedBook(headings: headings, tags: tags, titlePage: Bool.random(using: &generator))
    }

    func html(withContents: Bool, using generator: inout SeededGenerator) -> String {
        var html = "<!DOCTYPE html><html><head><title>A Book</title></head><body>"
        if titlePage {
            let top = max(1, tags[0] - 1)
            html += "<h\(top)>THE GENERATED BOOK</h\(top)><h\(tags[0])>by Nobody</h\(tags[0])>"
        }
        if withContents {
            html += "<h\(tags[0])>Contents</h\(tags[0])><ul>"
            for (index, heading) in headings.enumerated() { html += "<li><a href=\"#h\(index)\">\(heading.title)</a></li>" }
            html += "</ul>"
        }
        for (index, heading) in headings.enumerated() {
            let tag = tags[heading.level]
            html += "<h\(tag) id=\"h\(index)\">\(heading.title)</h\(tag)>"
            let isParent = index + 1 < headings.count && headings[index + 1].level > heading.level
            if !isParent || Bool.random(using: &generator) {
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    html += "<p>" + String(repeating: "Some words of the story, <i>told</i> on. ", count: 8) + "</p>"
                }
            }
        }
        html += "<h\(tags.last!)>THE END</h\(tags.last!)></body></html>"
        return html
    }

    private static func roman(_ number: Int) -> String {
        ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][number - 1]
    }
}

/// A chapter or two with notes in one of the styles editions use.
struct GeneratedNotes {
    struct Note {
        /// A word only the note holds, and one only its reference's paragraph.
        var word: String
        var referenceWord: String
        /// The label its reference's mark is written with: `[label]`.
        var mark: String
        /// Its reference stands in a heading, `A HEADING` and its word.
        var inHeading = false
    }

    private static func bare(_ label: String) -> String {
        label.hasPrefix("[") || label.hasPrefix("(") ? String(label.dropFirst().dropLast()) : label
    }

    var html: String
    var notes: [Note]

    static func random(using generator: inout SeededGenerator) -> GeneratedNotes {
        let style = Int.random(in: 0..<9, using: &generator)
        let placement = Int.random(in: 0..<3, using: &generator)  // after the paragraph, the chapter, the book
        let labelStyle = Int.random(in: 0..<7, using: &generator)
        let words = String(repeating: "Words of the story run on here. ", count: 6)
        var html = "<html><body>"
        var notes: [Note] = []
        var pending: [(number: Int, body: String)] = []
        for chapter in 1...2 {
            html += "<h2>CHAPTER \(chapter).</h2>"
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let number = notes.count + 1
                let note = (word: "noteword\(number)x", referenceWord: "referenceword\(number)x")
                var label = [
                    "[\(number)]", "\(number)", String(repeating: "*", count: (number - 1) % 3 + 1), "†\(number)", "(\(number))",
                    ["(*)", "(+)", "(‡)"][(number - 1) % 3], ["†", "‡", "§"][(number - 1) % 3],
                ][labelStyle]
                let reference: String
                let body: String
                switch style {
                case 0:
                    reference = "<a id=\"FNanchor_\(number)\" href=\"#Footnote_\(number)\" class=\"fnanchor\">\(label)</a>"
                    body = "<div class=\"footnote\"><p><a id=\"Footnote_\(number)\" href=\"#FNanchor_\(number)\"><span class=\"label\">\(label)</span></a> A note with \(note.word) ends here.</p></div>"
                case 1:
                    reference = "<a href=\"#linknote-\(number)\" name=\"linknoteref-\(number)\" id=\"linknoteref-\(number)\">\(label)</a>"
                    body = "<p><a name=\"linknote-\(number)\" id=\"linknote-\(number)\"><!-- Note --></a></p><p class=\"foot\">\(label) (<a href=\"#linknoteref-\(number)\">return</a>)<br /> [ A note with \(note.word) ends here.</p>"
                case 2:
                    reference = "<sup><a href=\"#fn\(number)\">\(label)</a></sup>"
                    body = "<div id=\"fn\(number)\"><p>\(label). A note with \(note.word) ends here.</p></div>"
                case 3:
                    reference = "<a id=\"r\(number)\" href=\"#n\(number)\">\(label)</a>"
                    body = "<p><a id=\"n\(number)\" href=\"#r\(number)\">\(label)</a> A note with \(note.word) ends here.</p>"
                case 4:
                    reference = "<a id=\"FNa_\(number)\" href=\"#FN_\(number)\" class=\"fnanchor\">\(label)</a>"
                    body = "<div class=\"footnote\"><p><a name=\"FN_\(number)\"></a><a href=\"#FNa_\(number)\"><span class=\"label\">\(label)</span></a></p><p>A note with \(note.word) ends here.</p></div>"
                case 5:
                    // Each note's anchor closes the note before it, where
                    // there is one (`gathered`).
                    reference = "<a href=\"#linknote-\(number)\" name=\"linknoteref-\(number)\">\(label)</a>"
                    body = "<p class=\"foot\">\(label) (<a href=\"#linknoteref-\(number)\">return</a>)<br /> [ A note with \(note.word) ends here.</p>"
                case 7:
                    // The label written out in bold, then the way back.
                    reference = "<a name=\"footnotetag\(number)\"></a><a href=\"#footnote\(number)\"><sup>\(label)</sup></a>"
                    body = "<blockquote class=\"footnote\"><a id=\"footnote\(number)\" name=\"footnote\(number)\"></a><b>Footnote \(label):</b>"
                        + "<a href=\"#footnotetag\(number)\">(return)</a><p>A note with \(note.word) ends here.</p></blockquote>"
                case 8:
                    // Marked `12)`, the note's words in a table (a vote's names).
                    label = "\(number)"
                    reference = "<a id=\"FNa_\(number)\" href=\"#FN_\(number)\" class=\"fnanchor\"><sup>\(label)</sup>)</a>"
                    body = "<div class=\"footnote\"><a id=\"FN_\(number)\" href=\"#FNa_\(number)\" class=\"label\">\(label))</a>"
                        + "<table><tr><td>A note</td><td>with</td></tr><tr><td>\(note.word)</td><td>ends here.</td></tr></table></div>"
                default:
                    reference = "<a id=\"ref\(number)\" href=\"#note\(number)\"><sup>\(label)</sup></a>"
                    body = "<p class=\"footnote\"><a id=\"note\(number)\" href=\"#ref\(number)\" class=\"label\">\(label)</a> A note with \(note.word) ends here.</p>"
                }
                // A note on a heading, now and then.
                let inHeading = Int.random(in: 0..<4, using: &generator) == 0
                notes.append(Note(word: note.word, referenceWord: note.referenceWord, mark: Self.bare(label), inHeading: inHeading))
                if inHeading {
                    html += "<h3>A HEADING \(note.referenceWord)\(reference)</h3><p>\(words)</p>"
                } else if [0, 4, 8].contains(style) || label.contains(where: { !$0.isLetter && !$0.isNumber }),
                          Int.random(in: 0..<4, using: &generator) == 0 {
                    // A song's verse set in a table, its last line marked
                    // (by a sign, or linking to an anchor that names a note:
                    // a bare figure in a table's cell is as often a page's).
                    html += "<p>\(words)</p><table><tr><td>\(words)<br />\(note.referenceWord)\(reference)</td></tr></table>"
                } else {
                    html += "<p>\(words) \(note.referenceWord)\(reference) \(words)</p>"
                }
                if placement == 0 { html += gathered([(number, body)], style: style) } else { pending.append((number, body)) }
            }
            if placement == 1 {
                html += gathered(pending, style: style)
                pending = []
            }
        }
        if placement == 2 { html += "<h2>NOTES</h2>" + gathered(pending, style: style) }
        return GeneratedNotes(html: html + "</body></html>", notes: notes)
    }

    /// Notes standing together; in style 5 the first one's anchor stands
    /// before it and each other's at the end of the note before it.
    private static func gathered(_ notes: [(number: Int, body: String)], style: Int) -> String {
        guard style == 5 else { return notes.map(\.body).joined() }
        func anchor(_ number: Int) -> String { "<a name=\"linknote-\(number)\" id=\"linknote-\(number)\"><!-- Note --></a>" }
        var html = notes.first.map { "<p>\(anchor($0.number))</p>" } ?? ""
        for (index, note) in notes.enumerated() {
            let next = index + 1 < notes.count ? " " + anchor(notes[index + 1].number) : ""
            html += note.body.replacingOccurrences(of: "ends here.</p>", with: "ends here.\(next)</p>")
        }
        return html
    }
}
