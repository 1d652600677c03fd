#!/usr/bin/env python3
"""comics benchmarks, each figure side by side with its floor (`make bench`).

    Tests/Bench/bench.py COMICS_BINARY [--runs N]

Every figure is the median of several runs, printed with its floor and the
ratio; nothing here is a pass/fail test (the machines are shared and noisy).
The loopback fixture server stands in for xkcd.com and Gutendex; the large
cache (100,000 books, 3,000 comics) is written straight into a database the
binary created, so its schema is comics' own, and indexed through its view.
"""
import fcntl
import json
import os
import select
import shutil
import sqlite3
import statistics
import subprocess
import re
import sys
import struct
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.path.join(ROOT, "Tests", "Fixtures", "server.py")


class Server:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.port = int(self.process.stdout.readline())
        self.url = "http://127.0.0.1:%d" % self.port

    def control(self, command):
        body = json.dumps(command).encode()
        subprocess.run(["curl", "-s", "-o", "/dev/null", "-X", "POST", "--data-binary", "@-", self.url + "/__control"],
                       input=body, check=True)

    def stop(self):
        self.process.stdin.close()
        self.process.wait()


def comic(number):
    return {"month": "1", "num": number, "link": "", "year": "2020", "news": "", "safe_title": "Comic %d" % number,
            "transcript": "", "alt": "alt text of comic %d" % number, "img": "https://imgs.xkcd.com/comics/c%d.png" % number,
            "title": "Comic %d" % number, "day": "2"}


def book(number):
    return {"id": number, "title": "Volume %d" % number,
            "authors": [{"name": "Author %d" % (number % 500), "birth_year": 1800, "death_year": 1880}],
            "summaries": ["A story told in %d chapters, about the sea and the %s." % (number % 40, "river" * (number % 3))],
            "editors": [], "translators": [], "subjects": ["Fiction -- Sea stories"], "bookshelves": ["Best Books Ever Listings"],
            "languages": ["en"], "copyright": False, "media_type": "Text",
            "formats": {"text/plain; charset=us-ascii": "https://www.gutenberg.org/ebooks/%d.txt.utf-8" % number,
                        "image/jpeg": "https://www.gutenberg.org/cache/epub/%d/pg%d.cover.medium.jpg" % (number, number)},
            "download_count": number % 9000}


def run(arguments, env, check=True):
    """Wall time and CPU time (user + system) of one run; its output is discarded."""
    started = time.perf_counter()
    process = subprocess.Popen(arguments, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    errors = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if check and process.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (" ".join(arguments), process.returncode, errors))
    return elapsed, usage.ru_utime + usage.ru_stime


def peak_rss(arguments, env, check=True):
    """Peak RSS in KiB, measured by GNU time. A child's own ru_maxrss also
    counts the memory of the process it was forked from (this script)
    until it executes, so it cannot be read from here."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        run(["/usr/bin/time", "-f", "%M", "-o", report.name] + arguments, env, check)
        return int(report.read().split()[-1])


class Browse:
    """`comics browse` (or another screen of it) in a pseudo-terminal of 80x24."""

    def __init__(self, binary, env, arguments=("browse",)):
        self.started = time.perf_counter()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.pid = os.fork()
        if self.pid == 0:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for descriptor in (0, 1, 2):
                os.dup2(slave, descriptor)
            os.execve(binary, [binary] + list(arguments), dict(env, TERM="xterm-256color", LANG="C.UTF-8"))
        os.close(slave)
        self.master = master
        self.output = b""

    def read_until(self, text, timeout=10.0):
        """Seconds from start until `text` was drawn."""
        deadline = time.time() + timeout
        while text.encode() not in self.output and time.time() < deadline:
            if select.select([self.master], [], [], 0.5)[0]:
                self.output += os.read(self.master, 65536)
        if text.encode() not in self.output:
            raise SystemExit("browse never drew %r" % text)
        return time.perf_counter() - self.started

    def settle(self, quiet=0.2):
        while select.select([self.master], [], [], quiet)[0]:
            chunk = os.read(self.master, 65536)
            if not chunk:
                return
            self.output += chunk

    def peak_rss(self):
        with open("/proc/%d/status" % self.pid) as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

    def quit(self):
        os.write(self.master, b"q")
        os.waitpid(self.pid, 0)
        os.close(self.master)


def median(arguments, env, runs, prepare=None):
    times = []
    for _ in range(runs):
        if prepare:
            prepare()
        times.append(run(arguments, env)[0])
    return statistics.median(times)


def paired_medians(arguments, floor_arguments, env, runs):
    """The medians of a command and of its floor, run in turn: a
    few-millisecond figure moves with whatever else the machine does, and
    measured one after the other, the two would each see another moment."""
    times, floor_times = [], []
    for _ in range(runs):
        times.append(run(arguments, env)[0])
        floor_times.append(run(floor_arguments, env)[0])
    return statistics.median(times), statistics.median(floor_times)


class Report:
    """Prints one row a figure as it is measured."""

    def add(self, name, value, floor_name, floor, goal):
        numbers = isinstance(value, float) and isinstance(floor, float) and floor > 0
        ratio = value / floor if numbers else None
        print("%-44s %9s   %-34s %9s   %6s   %s" % (
            name, format_value(value), floor_name, format_value(floor) if floor else "",
            "%.2fx" % ratio if ratio else "", goal), flush=True)


def format_value(value):
    if isinstance(value, str):
        return value
    return "%.1f ms" % (value * 1000)


def main():
    binary = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 9
    work = tempfile.mkdtemp(prefix="comics-bench-")
    server = Server()
    database = os.path.join(work, "comics.db")
    env = dict(os.environ, COMICS_DB=database, COMICS_XKCD_URL=server.url, COMICS_GUTENDEX_URL=server.url,
               COMICS_GUTENBERG_URL=server.url, HOME=work, LANG="C.UTF-8")
    env.pop("COLUMNS", None)
    report = Report()
    print("%-44s %9s   %-34s %9s   %6s   %s" % ("benchmark", "comics", "floor", "floor", "ratio", "goal"))
    try:
        # 1. Warm list against the sqlite3 CLI running the same query.
        run([binary, "list"], env)
        run([binary, "config", "set", "auto-cleanup", "off"], env)
        floor_query = ("SELECT i.id, json_extract(i.attributes, '$.date'), i.title FROM pages p, json_each(p.item_ids) j "
                       "JOIN items i ON i.source = p.source AND i.id = j.value "
                       "WHERE p.source = 'xkcd' AND p.query = 'limit=10' AND p.position = '' ORDER BY j.key")
        # A start costs a few milliseconds: five times the runs cost little.
        warm, sqlite_floor = paired_medians([binary, "list"], ["sqlite3", database, floor_query], env, runs * 5)
        report.add("1. warm list (10 comics)", warm, "sqlite3 CLI, same query", sqlite_floor, "<= 1.3x")
        hello = os.path.join(work, "hello")
        # Linked as `make release` links comics: libstdc++ from its archive.
        static_cxx = os.path.join(ROOT, ".build", "static-libstdc++")
        subprocess.run(["swiftc", "-O", "-static-stdlib", "-L" + static_cxx, "-o", hello,
                        os.path.join(ROOT, "Tests", "Bench", "hello.swift")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report.add("1. a static Swift program that prints a line", median([hello], env, runs),
                   "sqlite3 CLI, the query above", sqlite_floor, "")

        # 2. Cold list against one request, the server answering after 50 ms.
        server.control({"delay": 0.05})

        def fresh_database():
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(database + suffix):
                    os.remove(database + suffix)

        cold = median([binary, "list"], env, max(3, runs // 2), prepare=fresh_database)
        one = median(["curl", "-s", "-o", "/dev/null", server.url + "/200/info.0.json"], env, runs)
        report.add("2. cold list, 10 comics at 50 ms each", cold, "one 50 ms request (curl)", one, "<= 1.5x")
        # The newest comic's number comes from a first request; only then can
        # the other nine be asked for: two round trips are the floor.
        two = median(["curl", "-s", "-o", "/dev/null", server.url + "/info.0.json", "--next", "-s", "-o", "/dev/null",
                      server.url + "/199/info.0.json"], env, runs)
        report.add("2. the same cold list", cold, "two 50 ms requests in turn (curl)", two, "")
        # A page of books is one request.
        cold_books = median([binary, "-s", "books", "list"], env, max(3, runs // 2), prepare=fresh_database)
        report.add("2. cold books list (one page) at 50 ms", cold_books, "one 50 ms request (curl)", one, "<= 1.5x")
        server.control({"delay": 0})

        # 3. Sync of a 3,000-comic archive against curl --parallel.
        server.control({"latest": 3000, "comics": {str(n): comic(n) for n in range(201, 3001)}})
        urls = os.path.join(work, "urls.txt")
        with open(urls, "w") as handle:
            handle.write("".join('url = "%s/%d/info.0.json"\noutput = "/dev/null"\n' % (server.url, n)
                                 for n in range(1, 3001)))
        sync_runs = max(3, runs // 3)
        sync_cpu = []

        def timed_sync():
            fresh_database()
            elapsed, cpu = run([binary, "sync", "--quiet"], env)
            sync_cpu.append(cpu)
            return elapsed

        sync = statistics.median(timed_sync() for _ in range(sync_runs))
        curl_runs = [run(["curl", "-s", "--parallel", "--parallel-max", "10", "-K", urls], env) for _ in range(sync_runs)]
        report.add("3. sync, 3,000 comics", sync, "curl --parallel-max 10, same URLs",
                   statistics.median(elapsed for elapsed, _ in curl_runs), "<= 1.3x")
        report.add("3. sync CPU time (user + system)", statistics.median(sync_cpu), "curl's CPU time",
                   statistics.median(cpu for _, cpu in curl_runs), "")

        # A books sync of 109 pages (3,488 books), the server taking 100 ms
        # a page as the real Gutendex does, against curl fetching the same
        # pages ten at a time.
        server.control({"books": {str(n): book(n) for n in range(300_001, 300_001 + 3_488 - 64)}, "delay": 0.1})
        pages = os.path.join(work, "pages.txt")
        with open(pages, "w") as handle:
            handle.write('url = "%s/books/"\noutput = "/dev/null"\n' % server.url)
            handle.write("".join('url = "%s/books/?page=%d"\noutput = "/dev/null"\n' % (server.url, n) for n in range(2, 110)))
        books_runs = max(3, runs // 3)

        def timed_books_sync():
            fresh_database()
            return run([binary, "-s", "books", "sync", "--quiet"], env)[0]

        books_sync = statistics.median(timed_books_sync() for _ in range(books_runs))
        books_curl = statistics.median(run(["curl", "-s", "--parallel", "--parallel-max", "10", "-K", pages], env)[0]
                                       for _ in range(books_runs))
        report.add("3. books sync, 109 pages at 100 ms", books_sync, "curl --parallel-max 10, same pages", books_curl, "<= 1.2x")
        books_serial = statistics.median(run(["curl", "-s", "-K", pages], env)[0] for _ in range(books_runs))
        report.add("3. the same books sync", books_sync, "curl, one page after another", books_serial, "")
        server.control({"delay": 0})

        # Sync memory against a third of the archive: flat means alike.
        fresh_database()
        large_rss = peak_rss([binary, "sync", "--quiet"], env)
        server.control({"latest": 1000})
        fresh_database()
        small_rss = peak_rss([binary, "sync", "--quiet"], env)
        report.add("3. sync peak RSS, 3,000 comics", "%d MiB" % (large_rss // 1024),
                   "the same sync of 1,000 comics", "%d MiB" % (small_rss // 1024), "flat")

        # A hostile server: every comic 7 MiB. The fields are cut at decode
        # and a batch is refused past 32 MiB, so memory stays near the
        # ordinary figure (the command fails, exit 4).
        fresh_database()
        ordinary_rss = peak_rss([binary, "list", "-n", "50"], env)
        server.control({"bloat": 7 << 20})
        fresh_database()
        bloated_rss = peak_rss([binary, "list", "-n", "50"], env, check=False)
        report.add("3. list -n 50 peak RSS, every comic 7 MiB", "%d MiB" % (bloated_rss // 1024),
                   "list -n 50 of ordinary comics", "%d MiB" % (ordinary_rss // 1024), "<= 100 MiB")
        # Ten transcripts of one word 20,000 times (cut at 100,000
        # characters): a snippet is a window, not every match scored
        # against every other (FTS5's snippet() took 4.5 s a comic).
        server.control({"bloat": 200000})
        fresh_database()
        run([binary, "list"], env)
        report.add("3. search a word repeated through 10 transcripts", median([binary, "search", "word"], env, runs),
                   "", None, "<= 100 ms")
        server.control({"bloat": 0})

        texts(binary, env, server, work, runs, report, fresh_database)
        hostile_texts(binary, env, server, report, fresh_database)
        if "--texts" in sys.argv:
            return

        # 4. A large cache: 100,000 books and 3,000 comics.
        server.control({"latest": 3000})
        fresh_database()
        run([binary, "list"], env)
        run([binary, "-s", "books", "list"], env)
        run([binary, "config", "set", "auto-cleanup", "off"], env)
        fill(database)
        big_runs = [
            ("list", [binary, "list"], floor_query),
            ("books list", [binary, "-s", "books", "list"],
             "SELECT i.id, i.title FROM pages p, json_each(p.item_ids) j JOIN items i ON i.source = p.source "
             "AND i.id = j.value WHERE p.source = 'books' AND p.query = '' AND p.position = '' ORDER BY j.key"),
            ("show", [binary, "show", "books:54321"],
             "SELECT title, attributes FROM items WHERE source = 'books' AND id = 54321"),
            ("fav list (100 favourites)", [binary, "fav", "list"],
             "SELECT i.id, i.title FROM favorites f JOIN items i ON i.source = f.source AND i.id = f.id "
             "ORDER BY f.source, f.id"),
        ]
        for name, arguments, floor in big_runs:
            figure, floor_figure = paired_medians(arguments, ["sqlite3", database, floor], env, runs * 3)
            report.add("4. large cache: " + name, figure, "sqlite3 CLI, same query", floor_figure, "<= 1.5x")
        # The floor is comics' own ranked query: title or name matches, then
        # the words as one phrase (queries of several words), then bm25 with
        # comics' weights (the CLI has no comics_rank, its damped variant).
        def fts(expression, words):
            phrase = ("(rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH '\"%s\"')) DESC, " % " ".join(words)
                      if len(words) > 1 else "")
            return ("SELECT source, id, highlight(item_search, 0, '[', ']') FROM item_search WHERE item_search MATCH '%s' "
                    "ORDER BY (rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH '{title people} : (%s)')) DESC, "
                    "%sbm25(item_search, 10.0, 10.0, 1.0) LIMIT 20" % (expression, expression, phrase))

        for name, terms, expression in [
                ("search for one author (20 books)", ["author", "4321"], '"author" "4321"'),
                ("search 'story about the whale' (4 words)", ["story", "about", "the", "whale"],
                 '"story" "about" "the" "whale"'),
                ("search 'whale' (58,000 matches)", ["whale"], '"whale"')]:
            report.add("4. large cache: " + name, median([binary, "search"] + terms, env, runs),
                       "sqlite3 CLI, same FTS5 query", median(["sqlite3", database, fts(expression, terms)], env, runs),
                       "<= 20 ms")
        list_rss = max(peak_rss([binary, "list"], env) for _ in range(3))
        report.add("4. large cache: peak RSS of list", "%d MiB" % (list_rss // 1024), "", None, "<= 20 MB")

        # 5. browse on the large cache: start to the first frame, and peak
        # memory once the selection has been taken through all 3,000 comics
        # (G goes to the last row held, which loads the next page).
        def first_frame():
            browse = Browse(binary, env)
            elapsed = browse.read_until("Comic 2999")
            browse.quit()
            return elapsed

        report.add("5. browse: start to first frame, warm", statistics.median(first_frame() for _ in range(runs)),
                   "", None, "<= 50 ms")
        browse = Browse(binary, env)
        browse.read_until("Comic 2999")
        browse.settle()
        first_rss = browse.peak_rss()
        for _ in range(320):
            os.write(browse.master, b"G")
            browse.settle(0.05)
        os.write(browse.master, b"k")
        browse.settle()
        scrolled = b"Comic 2 " in browse.output or b"Comic 1 " in browse.output
        scrolled_rss = browse.peak_rss()
        browse.quit()
        report.add("5. browse peak RSS, whole archive scrolled" + ("" if scrolled else " (did not reach the end)"),
                   "%d MiB" % (scrolled_rss // 1024), "at the first frame", "%d MiB" % (first_rss // 1024), "flat")

        copy = os.path.join(work, "copy.db")

        def copy_big():
            shutil.copyfile(database, copy)

        copy_env = dict(env, COMICS_DB=copy)
        report.add("4. cleanup removing 100,000 books",
                   median([binary, "cleanup", "--quiet", "--max-age", "0s"], copy_env, 3, prepare=copy_big),
                   "", None, "<= 1 s")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def texts(binary, env, server, work, runs, report, fresh_database):
    """6. Books' texts: War and Peace downloaded, read, outlined and
    searched; a search through fifty downloaded texts; what a text costs
    the database and what reading it costs in memory."""
    fresh_database()
    run([binary, "config", "set", "auto-cleanup", "off"], env)
    run([binary, "show", "books:2600"], env)
    database = env["COMICS_DB"]

    def size_on_disk():
        connection = sqlite3.connect(database)
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        return os.path.getsize(database)

    before = size_on_disk()
    copy = os.path.join(work, "pg2600.txt")
    # Each get is a first one: the database as it was before, restored.
    snapshot = os.path.join(work, "before-get.db")
    shutil.copyfile(database, snapshot)
    got, floor, parts = get_beside_floor([binary, "get", "2600", "-q"], env, server.url + "/ebooks/2600.txt.utf-8", copy, work,
                                         runs, html=False, prepare=restorer(database, snapshot))
    report.add("6. get War and Peace (3.4 MB)", got, "curl + zstd -3 + sqlite3 FTS5 insert", floor, "<= 1.0x")
    report.add("6.   its floor's parts", parts, "", None, "")
    growth = (size_on_disk() - before) / os.path.getsize(copy)
    report.add("6. database growth for War and Peace", "%.2fx" % growth, "its text", "1.00x", "<= 0.6x")
    html_edition(binary, env, server, work, runs, report)
    report.add("6. read 2600 --section 200 > /dev/null", median([binary, "read", "2600", "--section", "200"], env, runs),
               "", None, "<= 50 ms")
    report.add("6. toc 2600", median([binary, "toc", "2600"], env, runs), "", None, "<= 30 ms")
    report.add("6. search natasha --in 2600", median([binary, "search", "natasha", "--in", "2600", "-q"], env, runs),
               "", None, "<= 20 ms")
    rss = max(peak_rss([binary, "read", "2600", "--from-start"], env) for _ in range(3))
    report.add("6. peak RSS of read 2600 (the whole book)", "%d MiB" % (rss // 1024), "", None, "<= 40 MB")
    # Fifty books of the fixture catalogue, each given one of the fixture
    # texts (Alice, the Sonnets, Earnest, Candide, Die Verwandlung).
    samples = [open(os.path.join(ROOT, "Tests", "Fixtures", "gutenberg", name), "rb").read().hex()
               for name in ("pg11.txt", "pg1041.txt", "pg844.txt", "pg4650.txt", "pg22367.txt")]
    listed = []
    for name in ("books-list-page1.json", "books-list-page2.json"):
        with open(os.path.join(ROOT, "Tests", "Fixtures", "gutendex", name)) as handle:
            listed += [book["id"] for book in json.load(handle)["results"]]
    # War and Peace and Pride and Prejudice keep their own editions: the
    # reader benches read them (a posted plain text hides a book's HTML).
    fifty = [n for n in listed if n not in (2600, 1342)][:49]
    server.control({"texts": {str(n): samples[index % len(samples)] for index, n in enumerate(fifty)}})
    run([binary, "-s", "books", "list"], env)
    run([binary, "-s", "books", "more"], env)
    run([binary, "get", "-q"] + [str(n) for n in fifty], env)
    report.add("6. search porpoise --texts (50 books)", median([binary, "search", "porpoise", "--texts", "-q"], env, runs),
               "", None, "<= 100 ms")
    reader(binary, env, runs, report)
    illustrated_reader(binary, env, runs, report)


def hostile_texts(binary, env, server, report, fresh_database):
    """8. What one paragraph or a flood of them costs: a 28.6 MiB file of
    ten million one-letter paragraphs got and printed, and a search in one
    paragraph of the same word 80,000 times. Once 2.28 GB and 27.6 s, and
    more than 300 s."""
    fresh_database()
    run([binary, "config", "set", "auto-cleanup", "off"], env)

    def serve(number, body):
        book = {"id": number, "title": "Flood", "authors": [], "summaries": [], "editors": [], "translators": [],
                "subjects": [], "bookshelves": [], "languages": ["en"], "copyright": False, "media_type": "Text",
                "formats": {"text/plain; charset=us-ascii": "https://www.gutenberg.org/ebooks/%d.txt.utf-8" % number},
                "download_count": 1}
        server.control({"books": {str(number): book}})
        text = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\nCHAPTER I.\n\n%s\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n" % body
        server.control({"texts": {str(number): text.encode().hex()}})
        run([binary, "show", "books:%d" % number], env)

    serve(70020, "a\n\n" * 10000000)
    started = time.perf_counter()
    rss = peak_rss([binary, "get", "70020", "-q"], env)
    report.add("8. get 10 million one-letter paragraphs", time.perf_counter() - started, "", None, "linear")
    report.add("8.   its peak RSS (a 28.6 MiB file)", "%d MiB" % (rss // 1024), "", None, "a small multiple")
    rss = peak_rss([binary, "read", "70020", "-f", "json"], env)
    report.add("8. peak RSS of read -f json of it", "%d MiB" % (rss // 1024), "", None, "a small multiple")
    serve(70022, ("word " * 1000 + "\n") * 80)
    run([binary, "get", "70022", "-q"], env)
    report.add("8. search word --in a paragraph of it 80,000 times",
               median([binary, "search", "word", "--in", "70022", "-q"], env, 3), "", None, "linear")


def restorer(database, snapshot):
    """A function that puts the database back as the snapshot has it."""
    def restore():
        for suffix in ("-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.remove(database + suffix)
        shutil.copyfile(snapshot, database)
    return restore


def html_edition(binary, env, server, work, runs, report):
    """6. Moby-Dick's HTML edition (1.5 MB) got, beside the same steps done
    by C tools one after another (`get_beside_floor`)."""
    run([binary, "show", "books:2701"], env)
    database = env["COMICS_DB"]
    snapshot = os.path.join(work, "before-html-get.db")
    run([sys.executable, "-c", "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')", database], env)
    shutil.copyfile(database, snapshot)
    restore = restorer(database, snapshot)
    copy = os.path.join(work, "pg2701.html")
    got, floor, parts = get_beside_floor([binary, "get", "2701", "-q"], env, server.url + "/ebooks/2701.html.images", copy, work,
                                         runs, html=True, prepare=restore)
    report.add("6. get Moby-Dick's HTML edition (1.5 MB)", got, "curl + zstd -3 + sqlite3 FTS5 insert", floor, "<= 1.0x")
    report.add("6.   its floor's parts", parts, "", None, "")
    report.add("6. toc 2701 (HTML edition)", median([binary, "toc", "2701"], env, runs), "", None, "<= 30 ms")
    restore()


def get_beside_floor(arguments, env, url, copy, work, runs, html, prepare):
    """Medians of a get and of the same steps done by C tools one after
    another: curl to disk, zstd -3 of the file (the store's level), and
    the sqlite3 shell inserting its paragraphs (tags taken out of an HTML
    file) into an FTS5 table in one transaction. The two alternate run by
    run, so that a shared machine's slow spells weigh on both alike.
    Returns the get's median, the floor's, and the floor's parts as text."""
    run(["curl", "-s", "-L", "-o", copy, url], env)
    with open(copy, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    if html:
        text = re.sub(r"<[^>]+>", "", text)
    paragraphs = [" ".join(chunk.split()) for chunk in re.split(r"\n\s*\n", text) if chunk.strip()]
    script = copy + ".sql"
    with open(script, "w") as handle:
        handle.write("CREATE VIRTUAL TABLE t USING fts5(body);\nBEGIN;\n")
        for paragraph in paragraphs:
            handle.write("INSERT INTO t VALUES('%s');\n" % paragraph.replace("'", "''"))
        handle.write("COMMIT;\n")
    index_db = os.path.join(work, "index.db")
    gets, fetches, compressions, indexes = [], [], [], []
    for _ in range(runs):
        prepare()
        gets.append(run(arguments, env)[0])
        fetches.append(run(["curl", "-s", "-L", "-o", copy, url], env)[0])
        compressions.append(run(["zstd", "-3", "-q", "-f", copy, "-o", copy + ".zst"], env)[0])
        if os.path.exists(index_db):
            os.remove(index_db)
        indexes.append(run(["sqlite3", index_db, ".read " + script], env)[0])
    parts = [statistics.median(times) for times in (fetches, compressions, indexes)]
    floor = statistics.median([sum(steps) for steps in zip(fetches, compressions, indexes)])
    return statistics.median(gets), floor, "%.0f + %.0f + %.0f ms" % tuple(part * 1000 for part in parts)


def reader(binary, env, runs, report):
    """7. The reader on War and Peace: opening at a saved place, turning
    pages, a search to its first hit, memory while reading it all."""
    screen, opened = open_at_saved_place(binary, env, runs, "2600", "· War and Peace", b":50%\r", "50% ·")
    report.add("7. reader: War and Peace open at a saved place", opened, "", None, "<= 50 ms")
    first_rss = screen.peak_rss()
    turns = page_turns(screen, b" ", 100)
    report.add("7. reader: a page turn, to its frame", statistics.median(turns), "", None, "<= 5 ms")
    screen.output = b""
    started = time.perf_counter()
    os.write(screen.master, b"/natasha\r")
    screen.read_until("hit ")
    report.add("7. reader: search natasha to the first hit shown", time.perf_counter() - started, "", None, "<= 30 ms")
    rss = paged_through(screen, pages=3000)
    report.add("7. reader: peak RSS, the whole book paged", "%d MiB" % (rss // 1024), "at the first frame",
               "%d MiB" % (first_rss // 1024), "flat, <= 40 MB")


def open_at_saved_place(binary, env, runs, book, opened_text, go, there):
    """Saves a place with `go` (shown as `there`), then opens the reader
    there `runs` times: the median seconds to the first frame, and a
    reader left open there."""
    place = Browse(binary, env, ("read", book))
    place.read_until(opened_text)
    os.write(place.master, go)
    place.read_until(there)
    place.quit()

    def opened():
        screen = Browse(binary, env, ("read", book))
        elapsed = screen.read_until(there)
        screen.quit()
        return elapsed

    median_opened = statistics.median(opened() for _ in range(runs))
    screen = Browse(binary, env, ("read", book))
    screen.read_until(there)
    screen.settle()
    return screen, median_opened


def paged_through(screen, pages):
    """Pages from the start through `pages` pages, then quits: the peak RSS."""
    os.write(screen.master, b"g")
    screen.settle()
    for _ in range(pages // 50):
        os.write(screen.master, b" " * 50)
        screen.settle(0.05)
        screen.output = b""
    rss = screen.peak_rss()
    screen.quit()
    return rss


def page_turns(screen, key, count):
    """Seconds from each key to the last byte of its frame (ncurses
    writes only the cells that changed: a frame is over when nothing more
    comes for 20 ms; a picture drawn after the text may follow later)."""
    turns = []
    for _ in range(count):
        started = time.perf_counter()
        os.write(screen.master, key)
        last = None
        while select.select([screen.master], [], [], 0.02 if last else 2)[0]:
            os.read(screen.master, 65536)
            last = time.perf_counter()
        turns.append((last or time.perf_counter()) - started)
    return turns


def illustrated_reader(binary, env, runs, report):
    """8. The reader on Pride and Prejudice's HTML edition, its 101
    pictures kept by get: opening at a saved place under a picture, pages
    turned over pictures, memory over the whole book."""
    run([binary, "get", "1342", "--edition", "html", "-q"], env)
    screen, opened = open_at_saved_place(binary, env, runs, "1342", "· Pride and Prejudice", b":3\r", "CHAPTER II. ·")
    report.add("8. reader: Pride and Prejudice (pictures) open at a saved place", opened, "", None, "<= 50 ms")
    first_rss = screen.peak_rss()
    turns = []
    for _ in range(20):
        turns += page_turns(screen, b" ", 1) + page_turns(screen, b"b", 1)
    report.add("8. reader: a page turn over a picture, to its frame", statistics.median(turns), "", None, "<= 5 ms")
    rss = paged_through(screen, pages=1600)
    report.add("8. reader: peak RSS, the whole illustrated book paged", "%d MiB" % (rss // 1024), "at the first frame",
               "%d MiB" % (first_rss // 1024), "flat, <= 40 MB")


def fill(database):
    """100,000 books and 3,000 comics, 100 favourites, in one transaction."""
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    now = time.time()
    words = ["whale", "sea", "captain", "river", "garden", "night", "letters", "journey", "island", "winter"]
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(
        "INSERT OR REPLACE INTO items (source, id, title, url, attributes, cached_at) VALUES ('books', ?, ?, ?, ?, ?)",
        ((n, "The %s of %s %d" % (words[n % 10].title(), words[(n // 10) % 10], n),
          "https://www.gutenberg.org/ebooks/%d" % n,
          json.dumps({"authors": [{"name": "Author %d" % (n % 5000), "birth_year": 1800, "death_year": 1880}],
                      "languages": ["en"], "subjects": ["Fiction -- %s" % words[(n // 100) % 10]], "bookshelves": [],
                      "summaries": ["A story about the %s and the %s." % (words[n % 7], words[n % 3])],
                      "media_type": "Text", "copyright": False, "download_count": n % 9000,
                      "cover_url": None, "formats": {}}), now)
         for n in range(100_000, 200_000)))
    connection.executemany(
        "INSERT OR REPLACE INTO items (source, id, title, url, attributes, cached_at) VALUES ('xkcd', ?, ?, ?, ?, ?)",
        ((n, "Comic %d" % n, "https://xkcd.com/%d/" % n,
          json.dumps({"date": "2020-01-02", "alt": "alt text %d" % n, "transcript": "", "image_url": None,
                      "interactive": False}), now)
         for n in range(1, 3001)))
    connection.executemany("INSERT OR IGNORE INTO favorites (source, id, added_at) VALUES ('books', ?, ?)",
                           ((n, now) for n in range(100_000, 100_100)))
    connection.execute("INSERT OR REPLACE INTO items (source, id, title, url, attributes, cached_at) "
                       "SELECT 'books', 54321, title, url, attributes, cached_at FROM items WHERE source = 'books' AND id = 100000")
    # comics keeps the search index with its own statements; these rows
    # are indexed as it indexes them (SearchIndex.swift): the title, the
    # names, then the text a person reads (none of it has controls).
    connection.execute("DELETE FROM item_search")
    connection.execute("""
        INSERT INTO item_search (rowid, title, people, body, source, id)
        SELECT id * 4 + CASE source WHEN 'xkcd' THEN 1 ELSE 2 END, title,
               coalesce((SELECT group_concat(value ->> 'name', '; ') FROM json_each(attributes, '$.authors')), ''),
               coalesce((SELECT group_concat(j.value, char(10)) FROM json_tree(attributes) j
                         WHERE j.type = 'text' AND j.value != ''
                           AND ((j.path = '$' AND j.key IN ('alt', 'transcript'))
                                OR j.path IN ('$.summaries', '$.subjects', '$.bookshelves'))), ''),
               source, id
        FROM items""")
    connection.execute("COMMIT")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()


if __name__ == "__main__":
    main()
