#!/usr/bin/env python3
"""How faithfully comics reads real Project Gutenberg books: `make corpus CORPUS=DIR`.

Every book of books.tsv (a GITenberg repository and commit, both editions in
it) is served from a loopback stand-in for Gutendex and gutenberg.org, read by
the built comics as a reader gets it (`get`: the HTML edition, unless comics
gives it up for the plain text) and as plain text (`get --edition text`), each
through `read -f json`, and measured against the book itself, with no
hand-made truth:

- words kept: the words of the plain text's body (between its START and END
  lines) found in the HTML edition's `read`, as a multiset, and the other way
  round; the printed contents and list of illustrations, which comics drops
  on purpose, are forgiven where the plain text prints them too (the HTML's
  own links say which they are), and so are bare numbers (page numbers
  differ between editions), the producers' credit and the plain text's own
  labels for what the HTML marks up (`[Illustration:`, `[Footnote 3:`);
- notes: the notes the HTML holds (what a short label links to, and links
  back from, or what is marked a note), those comics keeps as notes, and
  those a paragraph's references reach;
- artifacts: page numbers left in the text, sections without a word, a
  caption as a section, a contents heading left alone, the contents kept;
- outline: the book's own contents list (its links to anchors in the file,
  levelled by nesting and by their words) against comics' outline of each
  edition: entries found, in order, at the right level (under the same
  entry).

A fifth of the books is held out (`held-out` in books.tsv): their figures
are printed apart and no rule is written from them. A held-out fifth
measured often enough to steer the work is retired into training and
replaced by books never seen (the present one: 104 books drawn at random
before any was read, `random.Random(20261206).sample(range(1000, 60000),
2000)` less the books already here or fetched before and the acceptance
test's, taken in that order where GITenberg keeps both editions). DIR
holds the repositories as `fetch` lays them (`GITenberg+NAME/repo`) or as
`git clone` does (`NAME`). Nothing here reaches the network.

    corpus.py COMICS DIR [--book ID] [--detail] [--json FILE] [--jobs N]
"""
import argparse
import codecs
import collections
import concurrent.futures
import html.parser
import http.server
import itertools
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import unicodedata
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# -- the books ----------------------------------------------------------------


class Book:
    def __init__(self, fields):
        self.repo, self.commit, number, self.language, self.form, self.html_path, self.text_path, self.part = fields[:8]
        self.id = int(number)
        self.git_dir = None
        # The title the repository is named by (`Anne-of-Green-Gables_45`).
        self.title = self.repo.split("/")[-1].rsplit("_", 1)[0].replace("-", " ")

    def blob(self, path):
        result = subprocess.run(["git", "--git-dir", self.git_dir, "cat-file", "blob", "%s:%s" % (self.commit, path)],
                                capture_output=True)
        return result.stdout if result.returncode == 0 else None


def load_books(path):
    books = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                books.append(Book(line.rstrip("\n").split("\t")))
    return books


def locate(corpus, repo):
    owner, name = repo.split("/")
    fetched = os.path.join(corpus, "%s+%s" % (owner, name), "repo")
    for candidate in (fetched, os.path.join(fetched, ".git"), os.path.join(corpus, name, ".git"),
                      os.path.join(corpus, name), os.path.join(corpus, owner, name, ".git")):
        if os.path.isdir(candidate) and os.path.exists(os.path.join(candidate, "HEAD")):
            return candidate
    return None


# -- the loopback Gutendex and gutenberg.org ----------------------------------


def stand_in_png():
    """A 1×1 grey PNG: the pictures a snapshot lacks (files of 4 MiB and more)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x80")) + chunk(b"IEND", b""))


STAND_IN = stand_in_png()


def serve(books):
    by_id = {book.id: book for book in books}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body, content_type="application/json", headers=()):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.split("?")[0]
            parts = [part for part in path.split("/") if part]
            if parts[:1] == ["books"] and len(parts) == 2 and parts[1].isdigit():
                if not path.endswith("/"):
                    return self.send(301, b"", headers=[("Location", path + "/")])
                book = by_id.get(int(parts[1]))
                if book is None:
                    return self.send(404, b'{"detail":"No Book matches the given query."}')
                record = {
                    "id": book.id, "title": "Book %d" % book.id, "authors": [], "summaries": [], "translators": [],
                    "subjects": [], "bookshelves": [], "languages": [book.language], "copyright": False,
                    "media_type": "Text", "download_count": 1,
                    "formats": {
                        "text/html": "https://www.gutenberg.org/files/%d/%s" % (book.id, book.html_path),
                        "text/plain; charset=utf-8": "https://www.gutenberg.org/files/%d/%s" % (book.id, book.text_path),
                    },
                }
                return self.send(200, json.dumps(record).encode())
            if parts[:1] == ["files"] and len(parts) >= 3 and parts[1].isdigit() and int(parts[1]) in by_id:
                book = by_id[int(parts[1])]
                body = book.blob("/".join(parts[2:]))
                if body is None and "images" in parts:
                    body = STAND_IN
                if body is None:
                    return self.send(404, b"not found", "text/html")
                return self.send(200, body, "text/html" if parts[-1].endswith("htm") or parts[-1].endswith("html")
                                 else "text/plain; charset=utf-8")
            self.send(404, b"not found", "text/html")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def comics_run(comics, environment, *arguments):
    result = subprocess.run([comics, *arguments], env=environment, capture_output=True, timeout=600)
    return result.returncode, result.stdout, result.stderr.decode("utf-8", "replace")


def read_edition(comics, book, port, scratch, edition):
    home = os.path.join(scratch, edition)
    os.makedirs(home)
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "COMICS_DB": os.path.join(home, "comics.db"),
                   "COMICS_GUTENDEX_URL": "http://127.0.0.1:%d" % port, "COMICS_GUTENBERG_URL": "http://127.0.0.1:%d" % port,
                   "NO_COLOR": "1"}
    # The HTML side is what a reader gets by default: the HTML edition,
    # unless comics gives it up for the plain text (an index of files).
    chosen = ["--edition", edition] if edition == "text" else []
    status, _, error = comics_run(comics, environment, "get", "books:%d" % book.id, *chosen, "-q")
    if status not in (0, 4):  # 4: a picture the snapshot lacks
        return {"error": "get exited %d: %s" % (status, error.strip()[:200])}
    status, out, error = comics_run(comics, environment, "--offline", "read", "books:%d" % book.id, "-f", "json")
    if status != 0:
        return {"error": "read exited %d: %s" % (status, error.strip()[:200])}
    return json.loads(out)


# -- words --------------------------------------------------------------------

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def words(text):
    # `_` marks italics in both editions' text, inside a word too
    # (`Franç_ois_`, `l'_Interesse_`): no word ends at one.
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("_", "")
    return [word for word in WORD.findall(text) if not word.isdigit()]


def cp1252_fallback(error):
    """A byte that is no UTF-8 read as Windows-1252, as comics reads it: a
    UTF-8 text whose header alone is Latin-1 (`Polén`) stays UTF-8."""
    return error.object[error.start:error.end].decode("cp1252", "replace"), error.end


codecs.register_error("cp1252-fallback", cp1252_fallback)


def decode(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Mostly UTF-8 (a Latin-1 header's `é`): UTF-8, the stray bytes
        # read alone; else the whole as Windows-1252.
        sequences = re.findall(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}", data)
        strays = len(re.findall(rb"[\x80-\xff]", data)) - sum(len(sequence) for sequence in sequences)
        if len(sequences) > strays:
            return data.decode("utf-8", "cp1252-fallback")
        return data.decode("cp1252", "replace")


START = re.compile(r"^\s*\*+\s*START OF (THE|THIS) PROJECT GUTENBERG.*$|^\*END\*THE SMALL PRINT.*$", re.M | re.I)
END = re.compile(r"^\s*\*+\s*END OF (THE|THIS) PROJECT GUTENBERG.*$|^\s*End of (the )?Project Gutenberg.*$", re.M | re.I)
HTML_START = re.compile(r"\*\*\*\s*START OF (THE|THIS) PROJECT GUTENBERG|\*END\*THE SMALL PRINT", re.I)
HTML_END = re.compile(r"\*\*\*\s*END OF (THE|THIS) PROJECT GUTENBERG|^End of (the )?Project Gutenberg", re.I)


# The producers' credit at the front of the body, which comics leaves
# out of the HTML edition as the edition's, not the book's.
CREDIT = re.compile(r"\A\s*(?:produced|prepared|transcribed|e-?text prepared|this e-?(?:text|book) was (?:produced|prepared))\b.{0,600}?\n[ \t\r]*\n",
                    re.I | re.S)
# The plain text's words for what the HTML edition marks up: `[Illustration:
# …]`, `[Footnote 3: …]`, `[Sidenote: …]` keep their words, not the label.
MARKUP_WORDS = re.compile(r"(?<=\[)\s*(?:illustration|footnote|sidenote)\b", re.I)


def plain_body(text):
    start = START.search(text)
    body = text[start.end():] if start else text
    end = END.search(body)
    body = body[:end.start()] if end else body
    return MARKUP_WORDS.sub("", CREDIT.sub("", body, count=1))


# -- the HTML edition, read on its own ----------------------------------------

PAGE_ANCHOR = re.compile(r"^(page|pg|p|pag|seite|sivu)[_\-.]?[0-9ivxlc]+[a-z]?$", re.I)
BLOCKS = {"p", "div", "li", "tr", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table",
          "ul", "ol", "dl", "pre", "center", "body"}
LISTS = {"ul", "ol", "dl", "blockquote"}
INDENTED_CLASSES = {"inset", "indent", "indented", "ind", "sub", "subentry", "subsection"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
SKIPPED = {"script", "style", "head", "title"}
WORDS_OF_KIND = [
    (0, r"volume|vol|tome|band|tomo|deel"),
    (1, r"part|partie|teil|parte"),
    (2, r"book|livre|buch|libro|livro|boek|kirja|liber|osa"),
    (3, r"act|acte|akt|acto|atto|aufzug"),
    (4, r"chapter|chap|chapitre|kapitel|capitolo|cap[ií]tulos?|hoofdstuk|luku|caput|stave|canto|letter|lettre|brief|"
        r"runo|section|secci[oó]n|sezione|abschnitt|sec[çc][ãa]o|article|poem|song|adventure"),
    (5, r"scene|sc[eè]ne|szene|escena|scena|auftritt"),
]


CHAPTER_WORDS = r"chapter|chap|chapitre|kapitel|capitolo|cap[ií]tulos?|hoofdstuk|luku|caput"
SECTION_WORDS = r"section|secci[oó]n|sezione|abschnitt|sec[çc][ãa]o"


def kind_word(title):
    """Whether a title names a chapter or a section, by its first word."""
    first = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", title).lower())[:1]
    for kind, pattern in (("chapter", CHAPTER_WORDS), ("section", SECTION_WORDS)):
        if first and re.fullmatch(pattern, first[0]):
            return kind
    return None


# Figures, or a roman numeral as it is written (`xiv`, not `il` or `civil`).
NUMERAL = re.compile(r"[0-9]{1,3}|(?=[ivxlc])c{0,3}(?:x[lc]|l?x{0,3})(?:i[xv]|v?i{0,3})")
# A kind's word followed by one of these begins a title (`SONG OF THE
# COFFLE GANG`, `Letter to Mr. Bell`), not a division's number.
TITLE_WORDS = set("""of to from for and in on at by with a an de du des d à au aux von vom zu zum über aan van voor di
    da del della per para do dos""".split())


def heading_text(blocks, start):
    """The words at an anchor: its first block's with text, a heading's
    lines after a `<br>` (`217.` / `TO STEINER.`) with it."""
    first = next((index for index in range(start, min(len(blocks), start + 40)) if blocks[index]["text"].strip()), None)
    if first is None:
        return ""
    lines = [blocks[first]["text"]]
    following = first + 1
    while blocks[first]["tag"] in HEADINGS and following < len(blocks) and blocks[following].get("continues") \
            and blocks[following]["tag"] == blocks[first]["tag"]:
        if blocks[following]["text"]:
            lines.append(blocks[following]["text"])
        following += 1
    return " ".join(lines)


def kind_rank(title):
    # Words with their numbers (`1. Introduction`).
    first = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", title).lower())[:1]
    if not first:
        return None
    if re.match(r"\s*\(?[a-z]\)", title):
        return 5  # `a)`, `(b)` letter a chapter's parts
    if re.match(r"\s*[α-ω]\)", title):
        return 5.5  # `α)`, `β)` the parts of those
    if re.match(r"\s*§", title):
        return 4.5  # `§ 9.— Orígenes`: a section sign numbers a chapter's parts
    # A numeral alone numbers chapters; "I" before a word with no stop
    # between is the pronoun (`I AM MONARCH OF NOUGHT I SURVEY`, `"I am with
    # you alway"`), a letter before an apostrophe an elided article.
    if NUMERAL.fullmatch(first[0]) and not re.match(r"[\s\W]*I\s+[^\W\d_]", title) \
            and not re.match(r"[\s\W]*[lcdmi]['’]", title, re.I):  # `L'ERRANTE`, `D'un …`: an elision
        return 4
    # A kind's word numbers a division (`BOOK THE FIRST`, `LETTER XII`),
    # but not in a title that begins with it.
    second = re.findall(r"[^\W_]+", title.lower())[1:2]
    if second and second[0] in TITLE_WORDS:
        return None
    for rank, pattern in WORDS_OF_KIND:
        if re.fullmatch(pattern, first[0]):
            return rank
    return None


class EditionReader(html.parser.HTMLParser):
    """Blocks of text, the internal links in each and the anchors, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks = []          # {"text", "links": [(target, text, sup)], "depth", "classes", "tag"}
        self.anchors = {}         # id -> (block index, characters before it in the block)
        self.skip = 0
        self.lists = 0
        self.sup = 0
        self.bold = 0             # `<b>`, `<strong>` open
        self.link = None          # [target, text parts, own id, sup]
        self.bold_text = []       # the open link's text in bold
        self.current = None
        self.captions = []
        self.caption_depth = 0
        self.figure_depth = 0     # elements open that hold a picture and its caption
        self.contents_class = 0   # elements open whose class calls them the contents (`toc`, `contents`)
        self.stack = []
        self.tables = 0           # tables opened so far: a row's indent is measured within its table
        self.table = []           # the open tables' numbers
        self.columns = 0          # columns the open row has opened
        self.cell = 0             # the column the open cell began at
        self.cell_classes = []      # the open table cell's classes
        self.style_indent = 0     # the ems of `margin-left` the open elements' styles give
        self.new_block("body", [])

    def new_block(self, tag, classes):
        self.current = {"text": [], "links": [], "depth": self.lists, "indent": self.style_indent, "classes": classes + self.cell_classes, "tag": tag, "picture": False,
                        "in_contents": self.contents_class > 0, "in_figure": self.figure_depth + self.caption_depth > 0,
                        "table": self.table[-1] if self.table and tag == "tr" else None, "column": None}
        self.blocks.append(self.current)

    def record_anchors(self, attributes):
        """Where an element's anchors stand; one in a page's number, which
        goes, still names its place."""
        for key in ("id", "name"):
            if attributes.get(key) and attributes[key] not in self.anchors:
                self.anchors[attributes[key]] = (len(self.blocks) - 1, len("".join(self.current["text"])))

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        classes = (attributes.get("class") or "").lower().split()
        # A converter's navigation panel (`next`, `up`, `index` buttons) is
        # no part of the book.
        if tag in SKIPPED or "pagenum" in classes or "pageno" in classes or "navigation" in classes \
                or attributes.get("id") in ("pg-header", "pg-footer"):
            if tag not in ("br", "img", "hr"):
                self.stack.append((tag, True))
                self.skip += 1
            self.record_anchors(attributes)
            return
        if tag == "br" and not self.skip:
            # A contents list's entries are often lines of one paragraph.
            self.new_block(self.current["tag"], self.current["classes"])
            self.current["continues"] = True
            return
        if tag in ("br", "img", "hr", "meta", "link", "input"):
            if tag == "img" and self.skip == 0:
                self.current["picture"] = True
                if attributes.get("alt"):
                    self.captions.append(attributes["alt"])
            return
        caption = "caption" in classes or tag == "figcaption"
        contents = any(name in ("toc", "contents") or re.fullmatch(r"toc\d", name) for name in classes)
        figure = tag == "figure" or any(name.startswith("fig") or "illus" in name for name in classes)
        self.stack.append((tag, False, caption, contents, figure, self.style_indent))
        self.style_indent = max(self.style_indent, style_indent(attributes.get("style") or ""))
        if caption:
            self.caption_depth += 1
        if figure:
            self.figure_depth += 1
        if contents:
            self.contents_class += 1
        if self.skip:
            self.record_anchors(attributes)
            return
        if figure:
            self.current["picture"] = True
        if tag in LISTS:
            self.lists += 1
        if tag == "table":
            self.tables += 1
            self.table.append(self.tables)
        if tag == "tr":
            self.columns = 0
        if tag in ("td", "th"):
            # A cell's class indents its row (`<td class="inset">`), and
            # a paragraph in it.
            self.current["classes"] = self.current["classes"] + classes
            self.cell_classes = classes
            self.cell = self.columns
            self.columns += min(50, max(1, int(attributes.get("colspan") or 1) if (attributes.get("colspan") or "1").isdigit() else 1))
        if tag in BLOCKS:
            self.new_block(tag, classes)
        # An inline element's indent is its block's (a row's title in a
        # `<span style="margin-left: 2em">`, its page's link in the next cell).
        self.current["indent"] = max(self.current["indent"], self.style_indent)
        if tag == "sup":
            self.sup += 1
        if tag in ("b", "strong"):
            self.bold += 1
        self.record_anchors(attributes)
        if tag == "a" and (attributes.get("href") or "").startswith("#") and len(attributes["href"]) > 1:
            self.link = [attributes["href"][1:], [], attributes.get("id") or attributes.get("name"), self.sup > 0]
            self.bold_text = []

    def handle_endtag(self, tag):
        index = next((index for index in range(len(self.stack) - 1, -1, -1) if self.stack[index][0] == tag), None)
        if index is None:
            return
        while len(self.stack) > index:
            entry = self.stack.pop()
            if entry[1]:
                self.skip -= 1
                continue
            if entry[2]:
                self.caption_depth -= 1
            if entry[3]:
                self.contents_class -= 1
            if entry[4]:
                self.figure_depth -= 1
            self.style_indent = entry[5]
            if self.skip:
                continue
            name = entry[0]
            if name == "a" and self.link is not None:
                target, parts, own, sup = self.link
                self.current["links"].append((target, "".join(parts), own, sup))
                # A link set in bold whole: a contents entry above those
                # in plain type (`<b>First Series (1892)</b>`).
                if "".join(parts).strip() and "".join(self.bold_text).strip() == "".join(parts).strip():
                    self.current["bold"] = True
                self.link = None
            if name in LISTS:
                self.lists -= 1
            if name == "table" and self.table:
                self.table.pop()
            if name in ("td", "th"):
                self.cell_classes = []
            if name == "sup":
                self.sup -= 1
            if name in ("b", "strong"):
                self.bold -= 1
            if name in BLOCKS:
                self.new_block(name, [])

    def handle_data(self, data):
        if self.skip:
            return
        # A table row's first text, when it is a link: the column it stands in.
        if self.current["table"] is not None and data.strip() and not "".join(self.current["text"]).strip():
            self.current["column"] = self.cell if self.link is not None else None
        self.current["text"].append(data)
        if self.link is not None:
            self.link[1].append(data)
            if self.bold:
                self.bold_text.append(data)
        if self.caption_depth:
            self.captions.append(data)

    def finish(self):
        for block in self.blocks:
            block["text"] = re.sub(r"\s+", " ", "".join(block["text"])).strip()


def style_indent(style):
    """The ems an inline style indents by (`margin-left: 3em`, `padding-left:
    32px`, a pixel a sixteenth of one); a share of the page, none."""
    indent = 0
    for amount, unit in re.findall(r"(?:margin|padding)-left\s*:\s*([0-9]{1,6}(?:\.[0-9]+)?)\s*(r?em|px|ex|ch)\b", style.lower()):
        indent = max(indent, min(12, int(float(amount) / {"em": 1, "rem": 1, "px": 16, "ex": 2, "ch": 2}[unit] + 0.5)))
    return indent


LABEL = re.compile(r"^[\[\(]?\s*([0-9]{1,4}|[*†‡§¶‖#]{1,4}|[a-zA-Z]|[ivxlc]{1,6})\s*[\]\)]?\.?$")


def paged(block):
    """Whether a contents entry gives its page: a link to a page's anchor,
    or a number after its links (`Prologo … pag. 9`)."""
    if any(PAGE_ANCHOR.match(target) for target, _, _, _ in block["links"]):
        return True
    text = block["text"]
    last = block["links"][-1][1].strip() if block["links"] else ""
    after = text[text.rfind(last) + len(last):] if last and last in text else text
    return re.search(r"(?:^|\s)(?:%s)\.?\s*$" % NUMERAL.pattern, after) is not None


def heading_at(blocks, index):
    """Whether the first block with text from `index` on is a heading."""
    for block in blocks[index:index + 12]:
        if block["text"]:
            return block["tag"] in ("h1", "h2", "h3", "h4", "h5", "h6")
    return False


def heading_before_prose(blocks, index):
    """The heading that comes after `index` before a paragraph of prose
    does (a chapter's headpiece stands between its anchor and heading)."""
    for block in blocks[index:index + 20]:
        if block["text"] and block["tag"] in ("h1", "h2", "h3", "h4", "h5", "h6"):
            return block
        if len(words(block["text"])) > 12:
            return None
    return None


def heading_reads(blocks, index, label):
    """Whether the heading after `index`, before a paragraph of prose,
    reads as `label` does (a story's picture, captioned with its title,
    over its heading)."""
    heading = heading_before_prose(blocks, index)
    return heading is not None and bool(words(label)) and words(heading["text"]) == words(label)


def caption_first(blocks, index, captions):
    """Whether the first block with text from `index` on is a caption."""
    first = next((block for block in blocks[index:index + 12] if block["text"].strip()), None)
    return first is not None and " ".join(words(first["text"])) in captions


def first_text_reads(blocks, index, label):
    """Whether the first block with text from `index` on, past pictures,
    reads as `label` does and as a heading (`CHAPTER I.` in a paragraph of
    its own; a picture's caption reads as its entry too, but as no heading).
    The entry may leave the heading's number to a cell of its own (`I.` |
    `The birth of the Prince` for `Chapter I. The birth of the Prince`)."""
    wanted = words(label)
    for block in blocks[index:index + 40]:
        if block["text"]:
            heading = words(block["text"])
            if not wanted or heading[len(heading) - len(wanted):] != wanted:
                return False
            return kind_rank(label) is not None if heading == wanted else len(heading) - len(wanted) <= 3 and kind_rank(block["text"]) is not None
    return False


def list_title(blocks, index, list_blocks):
    """The heading over the list `index` is in: the first block with text
    before it that is none of the list's (nor a short line with a link,
    an entry pointing back, nor a row of the list's table: its column's
    `page`), if a heading."""
    table = blocks[index]["table"]
    for block_index in range(index - 1, -1, -1):
        block = blocks[block_index]
        if block_index in list_blocks or not block["text"].strip() or (block["links"] and len(block["text"]) <= 120) \
                or (table is not None and block["table"] == table):
            continue
        return block["text"] if block["tag"] in HEADINGS else ""
    return ""


def runs_on_as_prose(block, forward):
    """A paragraph that opens with a cross-reference in words and goes on
    as a sentence (`Baba Yaga came home just then.`): the first letter
    outside links after the first is small, and no page ends it. A
    table's row (`ISÈRE (river in France) | ISOMERISM`) is a list's."""
    label = forward[0][1].strip()
    if block["table"] is not None or LABEL.match(label) or kind_rank(label) is not None or any(PAGE_ANCHOR.match(target) for target, _ in forward):
        return False
    rest = block["text"][len(label):] if block["text"].startswith(label) else ""
    for _, other, _, _ in block["links"][1:]:
        rest = rest.replace(other.strip(), " ", 1)
    first = next((character for character in rest if character.isalpha()), "")
    return first.islower() and not re.search(r"(?:^|\s)(?:[0-9]+|[ivxlc]+)\W*$", block["text"], re.I)


def picture_at(blocks, index):
    """Whether the first block with text from `index` on shows a picture."""
    for block in blocks[index:index + 12]:
        if block["picture"]:
            return True
        if block["text"].strip():
            return False
    return False


def study_html(text):
    reader = EditionReader()
    reader.feed(text)
    reader.close()
    reader.finish()
    blocks, anchors = reader.blocks, reader.anchors
    # Only the work: after the START line and before the END one, where the
    # edition keeps them in its markup.
    first = next((index for index, block in enumerate(blocks) if HTML_START.search(block["text"])), -1)
    last = next((index for index, block in enumerate(blocks) if index > first and HTML_END.search(block["text"])), len(blocks))
    for index, block in enumerate(blocks):
        if index <= first or index >= last:
            block["links"] = []
    position = {anchor: block for anchor, (block, _) in anchors.items()}
    captions = {" ".join(words(caption)) for caption in reader.captions if words(caption)}
    # The book's own headings, outside any figure: a picture whose caption
    # repeats one (a cut of meat's `Veal.` beside the recipes'
    # `<h4>VEAL.</h4>`) does not make the heading a caption.
    headings = {" ".join(words(block["text"])) for block in blocks if block["tag"] in HEADINGS and not block["in_figure"]}
    # A contents table's row is as deep as its first text stands right of
    # the leftmost row's (an indented row leaves its first cells empty).
    leftmost = {}
    for block in blocks:
        if block["column"] is not None and any(target in position for target, _, _, _ in block["links"]):
            leftmost[block["table"]] = min(block["column"], leftmost.get(block["table"], block["column"]))
    for block in blocks:
        if block["column"] is not None and block["table"] in leftmost:
            block["depth"] += block["column"] - leftmost[block["table"]]
    # Notes: a short label's link to a place after it that links back, or
    # that calls itself a note.
    links = [(index, target, label.strip(), own, sup) for index, block in enumerate(blocks)
             for target, label, own, sup in block["links"]]
    back = {}
    for index, target, label, own, sup in links:
        back.setdefault(index, set()).add(target)
    notes = {}
    for index, target, label, own, sup in links:
        where = position.get(target)
        if where is None or PAGE_ANCHOR.match(target) or not (LABEL.match(label) or (sup and len(label) <= 6)):
            continue
        if where <= index:
            continue
        links_back = own is not None and own in back.get(where, set())
        called_note = re.search(r"note|fn|foot", target, re.I) is not None
        if not (links_back or called_note) or target in notes:
            continue
        # The note's first words: from its anchor on, the anchor's block
        # may be empty; its label and a "return" link are not its words.
        def own_words(text):
            body = words(text)
            label_words = words(label)
            if body[:len(label_words)] == label_words:
                body = body[len(label_words):]
            return [word for word in body if word not in WAY_BACK]
        body = own_words(blocks[where]["text"][anchors[target][1]:])
        following = where + 1
        searched = 0
        # Past empty blocks (a note's verse in a line group's frames).
        while not body and following < min(len(blocks), where + 12) and searched < 3:
            body = own_words(blocks[following]["text"])
            searched += 1 if blocks[following]["text"].strip() else 0
            following += 1
        notes[target] = {"label": label, "words": body[:6], "block": where, "from": index}
    # Contents: blocks mostly made of links to places after them (not
    # notes, not pages), and the heading just before such a run.
    contents = []
    contents_blocks = set()
    note_targets = set(notes)
    # A note's link back to its mark is no contents entry, even to a mark
    # in a heading.
    note_blocks = {note["block"] for note in notes.values()}
    marking_blocks = {note["from"] for note in notes.values()}
    # A contents printed at the end, under its title (ÍNDICE, TABLE DES
    # MATIÈRES): each entry links back to its page, the pages in the
    # book's order, where an index's go in the alphabet's.
    back_in_order = set()
    page_blocks = {position[anchor] for anchor in anchors if PAGE_ANCHOR.match(anchor)}
    title_level, last_page = None, -1
    for index, block in enumerate(blocks):
        if block["tag"] in HEADINGS and block["text"].strip():
            if block["text"].strip().lower().rstrip(".:") in CONTENTS_WORDS:
                title_level, last_page = int(block["tag"][1]), -1
            # (The title's second line, `DU TROISIÈME VOLUME`, is its own.)
            elif title_level is not None and int(block["tag"][1]) <= title_level and not block.get("continues"):
                title_level = None
            continue
        page = next((target for target, _, _, _ in block["links"]
                     if PAGE_ANCHOR.match(target) and target in position and position[target] < index), None)
        if title_level is not None and page is not None and position[page] >= last_page:
            last_page = position[page]
            back_in_order.add(index)
    # A list of corrections at the end (`#pág. 344 | demolissse |
    # demolisse`): each row a word of the text links to, its own link back
    # to that word's page. A contents entry no paragraph links to.
    corrected = {position[target] for index, target, label, own, sup in links
                 if target in position and position[target] > index
                 and (blocks[index]["tag"] not in HEADINGS or len(blocks[index]["text"]) > 300)
                 and not PAGE_ANCHOR.match(target) and target not in notes}
    # And so is every row of a table most of whose rows are such.
    rows = collections.Counter(block["table"] for block in blocks if block["table"] is not None and block["links"])
    corrections = collections.Counter(blocks[index]["table"] for index in corrected if blocks[index]["table"] is not None)
    corrected |= {index for index, block in enumerate(blocks)
                  if block["table"] is not None and corrections[block["table"]] * 2 >= rows[block["table"]]}
    for index, block in enumerate(blocks):
        # Links further on, or back to a heading (a contents list after
        # the text), neither notes nor pages (an anchor named like a page's
        # that a heading follows names the heading: `id="p1"`, Part First).
        forward = [(target, label) for target, label, _, _ in block["links"]
                   if target not in note_targets and target in position
                   and not (index in note_blocks and position[target] in marking_blocks)
                   # A heading's link back is the way to the contents.
                   and not (block["tag"] in HEADINGS and position[target] < index)
                   # An index's page numbers (`Gatschet, A. S. … 143`, back
                   # from the end), a list of corrections' are no entries,
                   # though a page may begin with a heading; a chapter's
                   # numeral linking to its heading by its name
                   # (`CAPITULO_I`, contents at the end) is one.
                   and not (position[target] < index and not block["in_contents"]
                            and re.fullmatch(r"[\divxlc]+", label.strip(), re.I)
                            and (PAGE_ANCHOR.match(target) or not heading_at(blocks, position[target])
                                 or not re.search(r"[a-z]{3}", target, re.I)))
                   and not (PAGE_ANCHOR.match(target) and not heading_at(blocks, position[target]))
                   and (position[target] > index or heading_at(blocks, position[target]))]
        if index in back_in_order:
            forward = [(target, label) for target, label, _, _ in block["links"] if PAGE_ANCHOR.match(target) and target in position][:1]
        if index in corrected and all(position[target] < index for target, _ in forward):
            continue
        if not forward or not block["text"]:
            continue
        linked = sum(len(label) for _, label in forward)
        # In a list its class calls the contents, or in a table's row after
        # its title (`BED IN SUMMER | 3`), a link to a place further on
        # makes an entry on its page number alone (`I Fatali pag. 5`).
        page_row = block["table"] is not None and len(forward) == 1 and len(block["text"]) <= 300 \
            and re.fullmatch(r"[\divxlc]+", forward[0][1].strip(), re.I) and block["text"].endswith(forward[0][1].strip())
        # A row's numeral and page number beside a short title's link
        # (`CHAPTER I. | The Return | 231`) leave it an entry.
        titled_row = block["table"] is not None and len(forward) == 1 and linked * 3 >= len(block["text"])
        if linked * 2 < len(block["text"]) and (len(block["text"]) > 300 or not block["text"].startswith(forward[0][1].strip()[:3])
                                                or runs_on_as_prose(block, forward)) \
                and not (block["in_contents"] and len(block["text"]) <= 300) and not page_row and not titled_row \
                and index not in back_in_order:
            continue
        contents_blocks.add(index)
        # In a list straight under a heading that names a list of
        # illustrations, an entry is a picture's, wherever it stands (a
        # chapter's headpiece).
        if " ".join(word for word in words(list_title(blocks, index, contents_blocks)) if word != "the") in ILLUSTRATION_TITLES:
            continue
        targets = list(dict.fromkeys(target for target, _ in forward))
        # A row's page number beside its title's link is the same entry,
        # and so is its paragraphs' (`1. Introduction | 1–30`).
        if any(not PAGE_ANCHOR.match(target) for target in targets):
            targets = [target for target in targets if not PAGE_ANCHOR.match(target)]
        titled = [target for target, label in forward if not NUMBERS.fullmatch(label.strip())]
        numbered = titled and len(titled) < len(targets)
        if numbered:
            targets = [target for target in targets if target in titled]
        title = block["text"] if len(targets) == 1 and not numbered else next(label for target, label in forward if target == targets[0])
        # Without its page number (`… 12`, `pag. 5`, `» 63`).
        bare = re.sub(r"(?:pag\.?|\b(?:page|p|s|bladz)\.?)?[\s.·…_»]*[0-9ivxlc]+\s*$", "", title.strip(), flags=re.I)
        title = bare if words(bare) else title
        for target in targets:
            label = title if len(targets) == 1 else next(label for t, label in forward if t == target)
            # A list of illustrations: a picture where it points, with its
            # caption before any heading (a chapter's headpiece has none).
            if picture_at(blocks, position[target]) and not first_text_reads(blocks, position[target], label) \
                    and not heading_reads(blocks, position[target], label) \
                    and (not heading_before_prose(blocks, position[target]) or caption_first(blocks, position[target], captions)):
                continue
            # An entry that says it is a picture's (`Illustration: Beverley
            # with potion`), wherever its caption stands.
            if re.match(r"\s*illustrations?\s*(?:[:.]|$)", label, re.I):
                continue
            depth = block["depth"] + block["indent"] + max([int(d) for c in block["classes"] for d in re.findall(r"(?:toc|indent|ind|inset|level|sub)(\d)", c)]
                                         + [1 for c in block["classes"] if c in INDENTED_CLASSES] or [0])
            at = heading_text(blocks, position[target])
            at_block = next((index for index in range(position[target], min(len(blocks), position[target] + 40))
                             if blocks[index]["text"].strip()), position[target])
            # An anchor before a volume's heading and its first chapter's
            # (`VOLUME I.`, `CHAPTER I.`, `CECILIA HOLT …`) is the chapter's
            # where the entry names the chapter: the volume is the row
            # above it, or no entry.
            if kind_rank(at) is not None and kind_rank(at) <= 2 and (kind_rank(label) is None or kind_rank(label) > 2) \
                    and not similar_words(title_words(label), title_words(at)):
                following = at_block + 1
                while following < min(len(blocks), at_block + 6) and not blocks[following]["text"].strip():
                    following += 1
                if following < len(blocks) and blocks[following]["tag"] in HEADINGS and blocks[at_block]["tag"] in HEADINGS \
                        and (kind_rank(blocks[following]["text"]) or 0) > 2:
                    at, at_block = heading_text(blocks, following), following
            # A page may begin with another heading than the entry's (its
            # chapter's, over `§ 9.— Orígenes históricos`): the one on it
            # reading as the entry, or saying its number and no more
            # (`CAPITOLO I` for `I.—Come l'anima …`).
            if PAGE_ANCHOR.match(target) and not similar_words(title_words(label), title_words(at)):
                number = re.match(r"\s*([0-9]+|[ivxlc]+)\s*[.—)]", label, re.I)
                number = title_words(number.group(1)) if number else None

                def reads_as_entry(index):
                    if blocks[index]["tag"] not in HEADINGS:
                        return False
                    said = title_words(heading_text(blocks, index))
                    return similar_words(title_words(label), said) or (number is not None and 0 < len(said) <= 3 and said[-1:] == number)
                on_page = next((index for index in range(position[target] + 1, min(len(blocks), position[target] + 60))
                                if reads_as_entry(index) or index in page_blocks), None)
                if on_page is not None and reads_as_entry(on_page):
                    at, at_block = heading_text(blocks, on_page), on_page
            contents.append({"target": target, "title": label.strip(), "depth": depth, "block": index, "at": at, "at_block": at_block,
                             "paged": paged(block), "bold": block.get("bold", False)})
    # A link alone is no list: a cross-reference in the text (a poem's
    # motto linking to its source), or a link to the contents list itself
    # (INDICE at the front of a book whose contents stand at its end).
    def alone(index, reach):
        return not any(other in contents_blocks for other in range(index - reach, index + reach + 1) if other != index)
    contents = [entry for entry in contents if not alone(entry["block"], 12) and not (
        alone(entry["block"], 3) and any(later in contents_blocks for later in range(position[entry["target"]] + 1, position[entry["target"]] + 5)))]
    # What an entry points to is no entry itself: a chapter's heading
    # linking on to its vocabulary (`<h2><a href="#voc_3">III</a>. Voilà…`).
    pointed = set()
    for entry in contents:
        start = position[entry["target"]]
        pointed.update(range(start, next((index for index in range(start, min(len(blocks), start + 40)) if blocks[index]["text"].strip()),
                                         start) + 1))
    contents = [entry for entry in contents if entry["block"] not in pointed]
    # An index's alphabet (`A B C …`, each letter a link to the first
    # word under it) and a way back to the top are no entries; a
    # dictionary's letter that is its letter's heading is, and so is a
    # numeral's letter (`I` to `CHAPTER I.`) between entries that are no
    # letters.
    def letters(title):
        return words(title) if re.fullmatch(r"[^\W\d_](?:\s+[^\W\d_])*\.?", title) else None
    def beside_letters(index):
        return any(0 <= other < len(contents) and letters(contents[other]["title"]) for other in (index - 1, index + 1))
    contents = [entry for index, entry in enumerate(contents) if not (
        letters(entry["title"]) and (beside_letters(index) or any(letter not in "ivxlcdm" for letter in letters(entry["title"])))
        and words(entry["at"]) != words(entry["title"])
        or re.fullmatch(r"(?:(?:go\s*to|back\s+to|return\s+to)\s+)?(?:the\s+)?top", entry["title"], re.I))]
    # An entry for a contents list (`DETAILED CONTENTS.`, a list of
    # illustrations) names what comics drops whole, no division.
    contents = [entry for entry in contents if " ".join(word for word in words(entry["at"]) if word != "the") not in CONTENTS_WORDS
                and not re.fullmatch(r"(?:detailed |analytical )?(?:table of )?contents\.?", entry["at"].strip().lower())]
    # One entry a target, the first.
    seen = set()
    contents = [entry for entry in contents if not (entry["target"] in seen or seen.add(entry["target"]))]
    # A row without a link between two entries (`LIBRO PRIMERO.—ESPAÑA
    # PRIMITIVA.`, `SECTION II.`, a poem cycle's title) that a heading
    # after the first entry's text and before the second's reads is
    # the list's own division: an entry as well, holding those after it.
    # (A heading straight after the first entry's is its subtitle.)
    by_block = {}
    for entry in contents:
        by_block.setdefault(entry["block"], entry)
    listed = sorted(by_block)
    # The kinds of division the list names, in the order it first names
    # them, a row without a heading of its own too (`CHAPITRE Ier.`).
    kinds_named = []
    for before, after in zip(listed, listed[1:]):
        rows = [index for index in range(before + 1, after) if blocks[index]["text"].strip()]
        if not rows or len(rows) > 3 or after - before > 12 \
                or any(blocks[index]["links"] or len(blocks[index]["text"]) > 120 for index in rows):
            continue
        kinds_named += [(row, kind_word(blocks[row]["text"])) for row in rows]
        # Before the next entry's heading: a number's row over its title's
        # (`CHAPTER III.` / `"HE IS DIFFERENT"`) is that entry's.
        start, end = position[by_block[before]["target"]] + 1, by_block[after]["at_block"]
        first_start = start
        # (A title whose page number stands in a block of its own, `<td><p>The
        # Shepherd</p></td><td><p><a>3</a></p></td>`, is that entry's.)
        if re.fullmatch(r"[\divxlc]+", blocks[after]["text"].strip(), re.I):
            rows = rows[:-1]
        for row in rows:
            said = words(blocks[row]["text"])
            heading = next((index for index in range(start, min(end, len(blocks))) if blocks[index]["tag"] in HEADINGS
                            and said in (words(blocks[index]["text"]), words(heading_text(blocks, index)))), None)
            if not said or heading is None or (start == first_start and not any(
                    blocks[index]["tag"] not in HEADINGS and words(blocks[index]["text"]) for index in range(start, heading))):
                continue
            key = "group row %d" % row
            position[key] = min(heading, position[by_block[after]["target"]])
            contents.append({"target": key, "title": blocks[row]["text"].strip(), "depth": blocks[row]["depth"] + blocks[row]["indent"], "block": row,
                             "at": heading_text(blocks, heading), "at_block": heading, "paged": False, "bold": False, "group": True})
            start = heading + 1
    # In the book's order: an index of songs lists them by their first
    # letter, the outline follows the text; a division before what it holds.
    # A page's entry stands where its heading does (a page may begin
    # before the division over it: TRACTATO DE LA DISCREZIONE, then
    # CAPITOLO IX, on page 21).
    def place(entry):
        return entry["at_block"] if PAGE_ANCHOR.match(entry["target"]) else position[entry["target"]]
    contents.sort(key=lambda entry: (place(entry), not entry.get("group")))
    # The words from an entry's place to the next entry's.
    for entry, following in zip(contents, contents[1:] + [None]):
        start = place(entry)
        end = place(following) if following else len(blocks)
        entry["own_words"] = sum(len(words(blocks[index]["text"])) for index in range(start + 1, max(start + 1, end)))
    contents_words = collections.Counter()
    for index in contents_blocks:
        contents_words.update(words(blocks[index]["text"]))
    # Short lines without links between two entries' are the first one's
    # summary (`CHAPTER I.` / `Civilizing Huck.—Miss Watson.`, over a few
    # lines): the contents' words.
    listed = sorted({entry["block"] for entry in contents})
    for first, following in zip(listed, listed[1:]):
        between = [blocks[index] for index in range(first + 1, following) if blocks[index]["text"]]
        if len(between) <= 12 and all(not block["links"] and len(block["text"]) <= 300 for block in between):
            for block in between:
                contents_words.update(words(block["text"]))
    # The heading of each contents run: the block before its first entry.
    for index in sorted(contents_blocks):
        if index - 1 not in contents_blocks:
            before = index - 1
            while before >= 0 and not blocks[before]["text"]:
                before -= 1
            if before >= 0 and len(words(blocks[before]["text"])) <= 4:
                contents_words.update(words(blocks[before]["text"]))
    # A contents or a list of illustrations without links: its title and
    # the blocks after it up to the next heading.
    for index, block in enumerate(blocks):
        if block["text"].strip().lower().rstrip(".:") not in CONTENTS_WORDS:
            continue
        run = []
        for following in blocks[index + 1:index + 600]:
            if not following["text"]:
                continue
            if following["tag"] in HEADINGS or len(words(following["text"])) > 400:
                break
            run.append(following)
        if run:
            contents_words.update(words(block["text"]))
            for following in run:
                contents_words.update(words(following["text"]))
    page_numbers = {re.sub(r"^\D*", "", anchor) for anchor in anchors if PAGE_ANCHOR.match(anchor)}
    kinds_named += [(entry["block"], kind_word(entry["at"] if kind_rank(entry["at"]) is not None else entry["title"])) for entry in contents]
    return {"notes": notes, "contents": contents, "contents_words": contents_words, "captions": captions - headings,
            "kinds_named": list(dict.fromkeys(kind for _, kind in sorted(kinds_named, key=lambda pair: pair[0]) if kind)),
            "page_numbers": page_numbers}


# -- the measures -------------------------------------------------------------


def paragraphs(document):
    for section in document.get("sections", []):
        for paragraph in section["paragraphs"]:
            yield section, paragraph


def document_words(document):
    counter = collections.Counter()
    for _, paragraph in paragraphs(document):
        counter.update(words(paragraph["text"]))
    return counter


def words_kept(plain, html_words, contents_words):
    # The printed contents, which comics drops on purpose, is forgiven
    # where the plain text prints it too: as much of its words as the HTML
    # edition's text lacks (many plain texts have no contents, or a shorter
    # one). A contents comics keeps is an artifact.
    plain = plain - collections.Counter({word: min(count, max(0, plain[word] - html_words[word]))
                                         for word, count in contents_words.items()})
    common = sum((plain & html_words).values())
    return {"recall": common / max(1, sum(plain.values())), "precision": common / max(1, sum(html_words.values())),
            "lost": (plain - html_words).most_common(12), "added": (html_words - plain).most_common(12),
            "lost_count": sum((plain - html_words).values()), "added_count": sum((html_words - plain).values())}


# What a note's way back to its reference calls itself (`(return)`): the
# edition's words, not the book's, that comics may drop.
WAY_BACK = {"return", "back", "retour", "zurück", "top", "terug", "ritorno", "volver", "voltar"}


def in_order_among(wanted, found):
    """Whether `wanted` stand in `found` in their order, others between."""
    rest = iter(found)
    return all(any(word == seen for seen in rest) for word in wanted)


def note_figures(study, document):
    kept = {}
    for _, paragraph in paragraphs(document):
        if paragraph["kind"] == "footnote":
            kept.setdefault(" ".join([word for word in words(paragraph["text"]) if word not in WAY_BACK][:24]), paragraph.get("anchor"))
    referenced = set()
    for _, paragraph in paragraphs(document):
        referenced.update(paragraph.get("notes", []))
    kept_count = resolved = 0
    missing = []
    for target, note in study["notes"].items():
        wanted = " ".join(note["words"])
        # The note's words begin a kept note, or failing that stand in one
        # (a short note's words may stand in a longer one's too), or in
        # order with others between (a glyph's picture read as its words),
        # where the note has words enough not to stand in any other by chance.
        holding = [(not text.startswith(wanted), anchor is None, anchor) for text, anchor in kept.items() if wanted and wanted in text]
        if not holding and len(note["words"]) >= 4:
            holding = [(True, anchor is None, anchor) for text, anchor in kept.items() if in_order_among(note["words"], text.split())]
        if not holding and wanted:
            missing.append((target, wanted))
            continue
        anchor = min(holding, key=lambda found: found[:2])[2] if holding else None
        kept_count += 1
        if anchor in referenced:
            resolved += 1
    return {"notes": len(study["notes"]), "kept": kept_count, "resolved": resolved, "missing": missing[:8]}


PAGE_MARK = re.compile(r"\[\s*(?:pg|p|page|pag|s|seite)\.?\s*[0-9ivxlc]+\s*\]|\{\s*[0-9]+\s*\}", re.I)
# A page's or a paragraph's number, or a range of them (`48–100`).
NUMBERS = re.compile(r"[\divxlc]+(?:\s*[-–—]\s*[\divxlc]+)?\.?", re.I)
ILLUSTRATION_TITLES = {"illustrations", "list of illustrations", "index of illustrations", "list of plates", "plates"}
CONTENTS_WORDS = {"contents", "table of contents", "inhalt", "inhaltsverzeichnis", "table des matières", "table", "indice",
                  "índice", "sisällys", "sisällysluettelo", "inhoud", "sommaire"} | ILLUSTRATION_TITLES


def artifacts(study, document, plain_text):
    """What the HTML edition's text holds that is not the book's: page
    numbers (those the plain text holds too are the book's own, a citation's
    `[p. 111]`), empty sections, captions as sections, contents headings."""
    found = collections.Counter()
    examples = []
    bracketed = re.compile(r"\[(\d+)\]")
    marks = collections.Counter()
    for section, paragraph in paragraphs(document):
        text = paragraph["text"]
        for match in PAGE_MARK.finditer(text):
            marks[re.sub(r"\s+", " ", match.group(0))] += 1
        if paragraph["kind"] != "footnote" and not paragraph.get("notes"):
            for match in bracketed.finditer(text):
                if match.group(1) in study["page_numbers"]:
                    marks[match.group(0)] += 1
    in_plain = collections.Counter(re.sub(r"\s+", " ", match.group(0)) for match in PAGE_MARK.finditer(plain_text))
    in_plain.update(match.group(0) for match in bracketed.finditer(plain_text))
    for mark, count in (marks - in_plain).items():
        found["page number"] += count
        examples.append(mark)
    # A list's title over the plates themselves (PLATES, then PLATE I and
    # its picture, as an appendix) is the heading of a part of the book.
    sections = document.get("sections", [])
    def holds_plates(section):
        at = sections.index(section)
        under = [section] + list(itertools.takewhile(lambda other: other["level"] > section["level"], sections[at + 1:]))
        return sum(1 for part in under for paragraph in part["paragraphs"] if paragraph["kind"] == "illustration") >= 2
    for section, paragraph in paragraphs(document):
        text = paragraph["text"]
        if paragraph["kind"] in ("heading", "prose", "paragraph", "lines") and text.strip().lower().rstrip(".:") in CONTENTS_WORDS \
                and not (paragraph["kind"] == "heading" and section["paragraphs"][0] is paragraph and holds_plates(section)):
            found["contents heading left"] += 1
            examples.append(text)
    # The printed contents kept as text: three paragraphs or more in a
    # row, each an entry's words.
    entries = {" ".join(words(entry["title"])) for entry in study["contents"]} - {""}
    run = []
    for section, paragraph in list(paragraphs(document)) + [(None, {"kind": "end", "text": ""})]:
        if paragraph["kind"] in ("prose", "paragraph", "lines") and " ".join(words(paragraph["text"])) in entries:
            run.append(paragraph["text"])
            continue
        if len(run) >= 3:
            found["contents kept"] += len(run)
            examples.append(run[0])
        run = []
    sections = document.get("sections", [])
    for index, section in enumerate(sections):
        if section.get("section") == 0:
            continue
        has_children = index + 1 < len(sections) and sections[index + 1]["level"] > section["level"]
        own = sum(len(words(paragraph["text"])) for paragraph in section["paragraphs"] if paragraph["kind"] != "heading")
        if own == 0 and not has_children:
            found["section without words"] += 1
            examples.append("§%s %s" % (section.get("section"), section["title"]))
        title = " ".join(words(section["title"]))
        # A section the contents names (by its entry's words or the heading
        # it points to) is no caption, though a picture repeats its title.
        if title and title in study["captions"] and not any(title in (" ".join(words(entry["title"])), " ".join(words(entry["at"])))
                                                            for entry in study["contents"]):
            found["caption as section"] += 1
            examples.append("§%s %s" % (section.get("section"), section["title"]))
    return {"count": sum(found.values()), "kinds": dict(found), "examples": examples[:8]}


def numeral_alone(title):
    """The value of the numeral that numbers a title with no word of kind
    before it (`I. The Subjects…` is 1, `2. Soveraigne Power…` 2)."""
    first = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", title).lower())[:1]
    if not first or not NUMERAL.fullmatch(first[0]) or re.match(r"[\s\W]*I\s+[^\W\d_]", title):
        return None
    return int(first[0]) if first[0].isdigit() else roman_value(first[0])


def roman_value(numeral):
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total = 0
    for index, letter in enumerate(numeral):
        value = values[letter]
        total += -value if index + 1 < len(numeral) and values[numeral[index + 1]] > value else value
    return total


def title_words(text):
    """A title's words as an outline compares them: its numbers kept, a
    roman numeral read as one (`CHAPTER XXVI.` is `Chapter 26`), so a bare
    `Chapter 1` is never the same as a bare `Chapter 26`."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    return [str(roman_value(word)) if NUMERAL.fullmatch(word) and not word.isdigit()
            else str(SPELLED[word]) if word in SPELLED else word.lstrip("0") or word
            for word in WORD.findall(text)]


# A number spelled as a title spells it (`Act One` is `ACT I.`).
SPELLED = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty".split()) if value > 0}


def similar(entry, title):
    return similar_words(title_words(entry), title_words(title))


def similar_words(entry_words, section_words):
    if not entry_words or not section_words:
        return False
    if entry_words == section_words:
        return True
    shorter, longer = sorted((entry_words, section_words), key=len)
    if longer[:len(shorter)] == shorter or longer[-len(shorter):] == shorter:
        return True
    common = sum((collections.Counter(entry_words) & collections.Counter(section_words)).values())
    return common >= 0.6 * len(entry_words) and common >= 0.6 * len(section_words)


def in_order(contents, sections):
    """The longest run of (entry, section) pairs in the order of both,
    exact matches preferred among runs as long."""
    entry_words = [(title_words(entry["at"]), title_words(entry["title"])) for entry in contents]
    section_words = [title_words(section["title"]) for section in sections]

    def pair(index, candidate):
        at, title = entry_words[index]
        if section_words[candidate] and section_words[candidate] in (at, title):
            return 1001
        if similar_words(title, section_words[candidate]) or similar_words(at, section_words[candidate]):
            return 1000
        return 0
    rows, columns = len(contents), len(sections)
    weights = [[pair(index, candidate) for candidate in range(columns)] for index in range(rows)]

    def weight(index, candidate):
        return weights[index][candidate]
    best = [[0] * (columns + 1) for _ in range(rows + 1)]
    for index in range(rows - 1, -1, -1):
        below, here = best[index + 1], best[index]
        for candidate in range(columns - 1, -1, -1):
            score = max(below[candidate], here[candidate + 1])
            paired = weight(index, candidate)
            if paired:
                score = max(score, paired + below[candidate + 1])
            here[candidate] = score
    matched = []
    index = candidate = 0
    while index < rows and candidate < columns:
        paired = weight(index, candidate)
        if paired and best[index][candidate] == paired + best[index + 1][candidate + 1]:
            matched.append((index, candidate))
            index, candidate = index + 1, candidate + 1
        elif best[index][candidate] == best[index + 1][candidate]:
            index += 1
        else:
            candidate += 1
    return matched


def parents(levels):
    """Each entry's parent: the nearest one before it at a higher level
    (a smaller value), or None."""
    result, open_above = [], []
    for index, level in enumerate(levels):
        while open_above and levels[open_above[-1]] >= level:
            open_above.pop()
        result.append(open_above[-1] if open_above else None)
        open_above.append(index)
    return result


def outline_agreement(contents, document, book_title="", kinds_named=()):
    sections = [section for section in document.get("sections", []) if section.get("section") != 0]
    # The book's own title over its text (WALDEN before ECONOMY), with no
    # words of its own, is no division of it: an outline may leave it out
    # or hold the book under it.
    titled = set(words(book_title))
    if contents and kind_rank(contents[0]["title"]) is None and contents[0]["own_words"] < 12 \
            and words(contents[0]["title"]) and sum(word in titled for word in words(contents[0]["title"])) * 2 >= len(words(contents[0]["title"])):
        contents = contents[1:]
    if not contents:
        return None
    # Levels the contents gives: nesting first, then the entries' words;
    # one or two unnumbered entries take the kind of the numbered one
    # beside them at their depth, a longer run of them are chapters.
    ranks = [kind_rank(entry["at"]) if kind_rank(entry["at"]) is not None else kind_rank(entry["title"]) for entry in contents]
    depths = [entry["depth"] for entry in contents]
    # Numerals counted afresh from one under a chapter its word and number
    # name, up to the next such chapter at its depth, are that chapter's
    # parts (a treatise's `I.`, `2.` under CHAPTER XVIII until CHAPTER XIX).
    def said(index):
        return contents[index]["at"] if kind_rank(contents[index]["at"]) is not None else contents[index]["title"]

    def names_chapter(index):
        tokens = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", said(index)).lower())
        return ranks[index] == 4 and numeral_alone(said(index)) is None and len(tokens) > 1 and bool(NUMERAL.fullmatch(tokens[1]))
    for index in [index for index in range(len(contents)) if names_chapter(index)]:
        parts, position = [], index + 1
        while position < len(contents) and depths[position] >= depths[index] and not (depths[position] == depths[index] and names_chapter(position)):
            if depths[position] == depths[index] and ranks[position] is not None:
                numeral = numeral_alone(said(position))
                if numeral is None or (not parts and numeral != 1):
                    break
                parts.append(position)
            position += 1
        if parts and position < len(contents) and depths[position] == depths[index] and names_chapter(position):
            for part in parts:
                ranks[part] = 4.5

    def beside(start, step, depth):
        position = start
        while 0 <= position < len(ranks) and depths[position] >= depth:
            if depths[position] == depth and known[position] is not None:
                return known[position]
            position += step
        return None
    # Unnumbered entries with no words of their own before the next entry,
    # a numbered one at their depth, hold them (INFERNO, PURGATORIO above
    # their cantos); one alone is a title (IVANHOE. before chapter I).
    holding = [index for index in range(len(ranks) - 1)
               if ranks[index] is None and contents[index]["own_words"] < 12 and depths[index + 1] == depths[index]
               and ranks[index + 1] is not None]
    # So do entries without a page, each straight before one with a page
    # at its depth, in a list whose entries mostly give theirs (a verse
    # collection's parts, a half-title and its motto apiece).
    if sum(entry["paged"] for entry in contents) * 2 >= len(contents):
        holding += [index for index in range(len(ranks) - 1)
                    if index not in holding and not contents[index]["paged"] and contents[index + 1]["paged"]
                    and contents[index]["own_words"] < 60 and depths[index + 1] == depths[index] and ranks[index] is None]
    # So do entries in bold, each straight before one in plain type at
    # its depth, where the others are plain (a collection's series above
    # their poems).
    bold_at = collections.Counter(depth for entry, depth in zip(contents, depths) if entry["bold"])
    plain_at = collections.Counter(depth for entry, depth in zip(contents, depths) if not entry["bold"])
    holding += [index for index in range(len(ranks) - 1)
                if index not in holding and ranks[index] is None and contents[index]["bold"] and not contents[index + 1]["bold"]
                and contents[index]["own_words"] < 60 and depths[index + 1] == depths[index]
                and bold_at[depths[index]] < plain_at[depths[index]]]
    for index in holding if len(holding) >= 2 else []:
        ranks[index] = (ranks[index + 1] if ranks[index + 1] is not None else 4) - 0.5
    known = list(ranks)
    start = 0
    while start < len(ranks):
        if known[start] is not None:
            start += 1
            continue
        end = start
        while end < len(ranks) and depths[end] == depths[start] and known[end] is None:
            end += 1
        kind = beside(end, 1, depths[start])
        if kind is None:
            kind = beside(start - 1, -1, depths[start])
        # A longer run between two chapters is the
        # chapter's parts: a treatise's topics under CHAPTER IV.
        before = known[start - 1] if start > 0 and depths[start - 1] == depths[start] else None
        after = known[end] if end < len(ranks) and depths[end] == depths[start] else None
        if end - start > 2 and before is not None and after is not None and 4 <= after <= before:
            longer = after + 0.5
        else:
            longer = 4
        for position in range(start, end):
            ranks[position] = (kind if kind is not None else 4) if end - start <= 2 else longer
        start = end
    # Divisions the list names without links, two or more, hold what
    # follows each: above the first entry after it, a stack of them each
    # above the next, unless its words say what it is. (One alone is a
    # title, as an unnumbered entry is.)
    groups = [index for index in range(len(contents)) if contents[index].get("group")]
    for index in reversed(groups if len(groups) >= 2 else []):
        if index + 1 < len(contents) and kind_rank(contents[index]["at"]) is None and kind_rank(contents[index]["title"]) is None \
                and depths[index + 1] == depths[index]:
            ranks[index] = ranks[index + 1] - 0.5
    # Chapters and sections, divisions of one rank: the kind the book
    # names first holds the other (CHAPITRE III, its SECTION Ire).
    named = [kind_word(said(index)) if ranks[index] == 4 else None for index in range(len(ranks))]
    if len(kinds_named) == 2:
        ranks = [4.25 if kind == kinds_named[1] else rank for kind, rank in zip(named, ranks)]
    # Volumes, parts and books nest in the order the book first names them
    # (a treatise's BOOK I holds its PART I; a novel's PART FIRST its BOOK I).
    divisions = []
    for rank in ranks:
        if rank <= 2 and rank not in divisions:
            divisions.append(rank)
    ranks = [divisions.index(rank) if rank <= 2 else rank for rank in ranks]
    keys = [(entry["depth"], rank) for entry, rank in zip(contents, ranks)]
    # Entries found in order: the most entries matched to sections in the
    # same order (one entry matched far ahead loses none between), a
    # section reading the same as the words at the anchor or the entry
    # before one only like them.
    matched = in_order(contents, sections)
    # At the right level: under the same entry in both (a level more or
    # less used elsewhere moves nothing).
    truth = parents([keys[index] for index, _ in matched])
    levels = parents([sections[candidate]["level"] for _, candidate in matched])
    right = sum(1 for a, b in zip(truth, levels) if a == b)
    unmatched = [contents[index]["title"] for index in range(len(contents)) if index not in {i for i, _ in matched}]
    wrong_level = [contents[index]["title"] for (index, _), a, b in zip(matched, truth, levels) if a != b]
    return {"entries": len(contents), "found": len(matched), "right": right,
            "missing": unmatched[:8], "wrong_level": wrong_level[:8], "sections": len(sections)}


# -- one book, and all --------------------------------------------------------


def measure(comics, book, port):
    html_bytes, text_bytes = book.blob(book.html_path), book.blob(book.text_path)
    if html_bytes is None or text_bytes is None:
        return {"id": book.id, "error": "the snapshot lacks %s" % (book.html_path if html_bytes is None else book.text_path)}
    with tempfile.TemporaryDirectory(prefix="comics-corpus-") as scratch:
        html_document = read_edition(comics, book, port, scratch, "html")
        text_document = read_edition(comics, book, port, scratch, "text")
    if "error" in html_document or "error" in text_document:
        return {"id": book.id, "error": html_document.get("error") or text_document.get("error")}
    study = study_html(decode(html_bytes))
    body = plain_body(decode(text_bytes))
    plain = collections.Counter(words(body))
    return {
        "id": book.id, "repo": book.repo, "language": book.language, "form": book.form, "part": book.part,
        "words": words_kept(plain, document_words(html_document), study["contents_words"]),
        "notes": note_figures(study, html_document),
        "artifacts": artifacts(study, html_document, body),
        "outline_html": outline_agreement(study["contents"], html_document, book.title, study["kinds_named"]),
        "outline_text": outline_agreement(study["contents"], text_document, book.title, study["kinds_named"]),
        "html_sections": len(html_document.get("sections", [])) - 1,
    }


def percent(part, whole):
    return "%5.1f" % (100.0 * part / whole) if whole else "    -"


def score(result):
    """Lower is worse: the least of the book's figures, as fractions."""
    if "error" in result:
        return -1
    figures = [result["words"]["recall"], result["words"]["precision"]]
    notes = result["notes"]
    if notes["notes"]:
        figures.append(notes["resolved"] / notes["notes"])
    outline = result["outline_html"]
    if outline and outline["entries"]:
        figures.append(outline["right"] / outline["entries"])
    figures.append(1.0 / (1 + result["artifacts"]["count"]))
    return min(figures)


def row(result):
    if "error" in result:
        return "%6d  error: %s" % (result["id"], result["error"])
    words_figures, notes, outline_html, outline_text = result["words"], result["notes"], result["outline_html"], result["outline_text"]
    def outline(figures):
        return "%4d/%-4d %s" % (figures["right"], figures["entries"], percent(figures["right"], figures["entries"])) if figures else "    -          "
    return "%6d %-2s %-14.14s %6.2f %6.2f  %4d/%-4d %4d  %4d  %s  %s  %4d" % (
        result["id"], result["language"], result["form"], 100 * words_figures["recall"], 100 * words_figures["precision"],
        notes["resolved"], notes["notes"], notes["kept"], result["artifacts"]["count"], outline(outline_html), outline(outline_text),
        result["html_sections"])


HEADER = "%6s %-2s %-14s %6s %6s  %9s %4s  %4s  %-15s  %-15s  %4s" % (
    "book", "la", "form", "recall", "prec", "notes res", "kept", "art", "outline html", "outline text", "secs")


def totals(results, label):
    good = [result for result in results if "error" not in result]
    if not good:
        return "%s: no book measured" % label
    def total(key):
        return sum(result[key]["right"] for result in good if result[key]), sum(result[key]["entries"] for result in good if result[key])
    notes = [sum(result["notes"][key] for result in good) for key in ("notes", "kept", "resolved")]
    html_right, entries = total("outline_html")
    text_right, _ = total("outline_text")
    recall_ok = sum(1 for result in good if result["words"]["recall"] >= 0.995 and result["words"]["precision"] >= 0.995)
    return ("%s: %d books (%d errors); words ≥ 99.5%% both ways on %d; least recall %.2f%%, least precision %.2f%%; "
            "notes %d, kept %d, resolved %d; artifacts %d on %d books; outline html %s%%, text %s%% of %d entries") % (
        label, len(good), len(results) - len(good), recall_ok, 100 * min(result["words"]["recall"] for result in good),
        100 * min(result["words"]["precision"] for result in good), notes[0], notes[1], notes[2],
        sum(result["artifacts"]["count"] for result in good), sum(1 for result in good if result["artifacts"]["count"]),
        percent(html_right, entries).strip(), percent(text_right, entries).strip(), entries)


def detail(result):
    if "error" in result:
        return
    if result["part"] == "held-out":
        print("  held out: its figures are measured, its details not shown")
        return
    print("  words lost: %s" % result["words"]["lost"])
    print("  words added: %s" % result["words"]["added"])
    print("  notes missing: %s" % result["notes"]["missing"])
    print("  artifacts: %s %s" % (result["artifacts"]["kinds"], result["artifacts"]["examples"]))
    for key in ("outline_html", "outline_text"):
        if result[key]:
            print("  %s: missing %s; wrong level %s" % (key, result[key]["missing"], result[key]["wrong_level"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("comics")
    parser.add_argument("corpus")
    parser.add_argument("--books", default=os.path.join(HERE, "books.tsv"))
    parser.add_argument("--book", type=int, action="append", help="measure this book alone (repeatable)")
    parser.add_argument("--part", choices=["train", "held-out"], help="measure one part alone")
    parser.add_argument("--detail", action="store_true", help="what each book lost, added and missed")
    parser.add_argument("--json", help="write every figure to this file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    arguments = parser.parse_args()
    books = load_books(arguments.books)
    if arguments.book:
        books = [book for book in books if book.id in arguments.book]
    if arguments.part:
        books = [book for book in books if book.part == arguments.part]
    missing = []
    for book in books:
        book.git_dir = locate(arguments.corpus, book.repo)
        if book.git_dir is None:
            missing.append(book.repo)
    if missing:
        print("corpus: %d of %d books are not in %s, e.g. %s; clone that repository into it (or `fetch` it) and run again"
              % (len(missing), len(books), arguments.corpus, missing[0]), file=sys.stderr)
        books = [book for book in books if book.git_dir]
    server = serve(books)
    port = server.server_address[1]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
        results = list(pool.map(lambda book: measure(arguments.comics, book, port), books))
    server.shutdown()
    print(HEADER)
    for result in results:
        print(row(result))
        if arguments.detail:
            detail(result)
    print()
    for part in ("train", "held-out"):
        print(totals([result for result in results if result.get("part") == part or
                      ("error" in result and next(b.part for b in books if b.id == result["id"]) == part)], part))
    print(totals(results, "all"))
    print()
    print("worst ten:")
    for result in sorted(results, key=score)[:10]:
        print(row(result))
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, ensure_ascii=False, indent=1)
    return 1 if missing or any("error" in result for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
