#!/usr/bin/env python3
"""A loopback stand-in for xkcd.com and Gutendex, for comics' tests.

xkcd: serves the real xkcd documents in a fixture folder laid out as
xkcd.com serves them (N/info.0.json, info.0.json for the latest), with ETag
and Last-Modified validators and 304s, and the archive's 404 for comic 404.

Gutendex, under /books/: the 64 real books of gutendex/books-list-page*.json
as the real server (Django REST framework) serves them: 32 per page, `count`,
an absolute `next` built from the request's Host with the query's
parameters sorted, `previous` without a page parameter on page 2, 404
{"detail": "Invalid page."} past the end, `search` (every word in the title
or an author's name), `languages`, `topic` (subjects and bookshelves),
`sort` (popular, ascending, descending), `ids`; /books/ID/ for one book
(also the books of gutendex/book-detail-*.json, which are in no listing),
404 {"detail": ...} for an unknown one, and 301 to add a missing slash.

Pictures: /images/NAME serves the files of the images/ folder (and any
added through /__control); so do a book's images/ folder beside its HTML
edition, where a name with no file is served the picture of its kind.

It is also a forward proxy for plain HTTP: a request for an absolute URL
(`GET http://xkcd.test/info.0.json`) is answered as if made to this server,
and the host is recorded.

Tests steer it through /__control (JSON body) and read /__stats (requests,
hits per path, User-Agents, the most requests in flight at once, how many
connections were opened, and the hosts asked for through it as a proxy):

  {"latest": 200}                     which comic info.0.json names
  {"comics": {"201": {...}}}          extra or replacement documents
  {"books": {"9001": {...}}}          extra or replacement books
  {"next": {"1": "http://x/"}}        the `next` link page 1 sends instead
  {"images": {"x.png": "89504e47"}}   extra files under /images/ (hex bytes)
  {"fault": "500", "count": 2}        the next 2 requests fail that way
  {"fault": "hang"}                   hold requests until {"fault": null}
  {"fault": "500", "only": "/images/"}  only requests whose path holds that
  {"delay": 0.05}                     answer every request after 50 ms
  {"book_count": 76000}               the `count` every book list claims
  {"bloat": 7340032}                  every comic's transcript padded to that many bytes
  {"reset": true}                     forget faults, overrides and counts

Faults: "500", "502", "503", "429" (with Retry-After: 0, or {"retry_after": "..."}:
seconds, an HTTP-date, garbage), "refuse" (close the connection at once),
"hang", "huge" (an endless body with no Content-Length), "stall" (the
headers, then one byte a second), "redirect:URL" (301 to URL; a relative URL
stays on this server), "redirect-loop" (301 to the same URL).
Faults that replace a 200 document (xkcd and Gutendex alike): "truncated"
(half of it), "html" (an HTML page), "types" (JSON with every field of the
wrong type), "utf8" (bytes that are not UTF-8 inside a string), "deep"
(arrays nested 100,000 deep). "etag-cr": an ETag holding a bare CR and
a header after it.
With --tls it serves HTTPS with selfsigned.crt, a certificate no client
trusts (for the test that TLS verification fails closed).
Prints the port it listens on, then serves until stdin closes or it is killed.
"""
import hashlib
import json
import os
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, urlencode

HERE = os.path.dirname(os.path.abspath(__file__))
ARGUMENTS = [argument for argument in sys.argv[1:] if argument != "--tls"]
ROOT = ARGUMENTS[0] if ARGUMENTS else os.path.join(HERE, "xkcd")
STATE_LOCK = threading.Condition()
BOOKS_PER_PAGE = 32


def fresh_state():
    return {"latest": 200, "comics": {}, "books": {}, "next": {}, "images": {}, "fault": None, "count": None,
            "retry_after": "0", "delay": 0, "book_count": None, "bloat": 0,
            "hits": {}, "requests": [], "total": 0, "agents": [], "in_flight": 0, "most_in_flight": 0,
            "connections": 0, "proxied": [], "texts": {}, "html": {}}


STATE = fresh_state()


def load_books():
    books = []
    for name in ("books-list-page1.json", "books-list-page2.json"):
        path = os.path.join(HERE, "gutendex", name)
        if os.path.exists(path):
            with open(path, "rb") as handle:
                books += json.load(handle)["results"]
    return books


FIXTURE_BOOKS = load_books()


def load_detail_books():
    """Books the real server answered by id (book-detail-*.json), in no listing."""
    books = {}
    for folder, prefix in ((os.path.join(HERE, "gutendex"), "book-detail-"), (os.path.join(HERE, "gutenberg"), "gutendex-book-")):
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if name.startswith(prefix) and name.endswith(".json"):
                with open(os.path.join(folder, name), "rb") as handle:
                    book = json.load(handle)
                books[book["id"]] = book
    return books


def text_file(number):
    """A book's text: one posted as {"texts": {"N": "hex"}}, else the fixture pgN.txt."""
    with STATE_LOCK:
        posted = STATE["texts"].get(str(number))
    if posted is not None:
        return bytes.fromhex(posted)
    path = os.path.join(HERE, "gutenberg", "pg%d.txt" % number)
    if os.path.isfile(path):
        with open(path, "rb") as handle:
            return handle.read()
    return None


DETAIL_BOOKS = load_detail_books()


def html_file(number, older=False):
    """A book's HTML edition: one posted as {"html": {"N": "hex"}}, else the
    fixture pgN-images.html (today's generated edition) or pgN.N-h.htm (the
    older hand-made one); each URL serves the other when only it exists, as
    every book has one edition or both. A book whose plain text a test posted
    has no HTML edition unless one is posted too."""
    with STATE_LOCK:
        posted = STATE["html"].get(str(number))
        text_posted = str(number) in STATE["texts"]
    if posted is not None:
        return bytes.fromhex(posted)
    if text_posted:
        return None  # a test that posts a plain text reads that text
    names = ["pg%d-images.html" % number, "pg%d.%d-h.htm" % (number, number)]
    for name in reversed(names) if older else names:
        path = os.path.join(HERE, "gutenberg", name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                return handle.read()
    return None


def comic_document(number):
    key = str(number)
    if key in STATE["comics"]:
        return bloated(json.dumps(STATE["comics"][key]).encode())
    if number == 404:
        return None
    path = os.path.join(ROOT, key, "info.0.json")
    if number > STATE["latest"] or not os.path.exists(path):
        return None
    with open(path, "rb") as handle:
        return bloated(handle.read())


def bloated(document):
    """The document with its transcript padded to STATE["bloat"] bytes, if set."""
    if not STATE["bloat"]:
        return document
    parsed = json.loads(document)
    parsed["transcript"] = ("word " * (STATE["bloat"] // 5 + 1))[:STATE["bloat"]]
    return json.dumps(parsed).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body go out in separate writes; without this, Nagle's
        # algorithm and the client's delayed ACK add 40 ms to each answer
        # after the first on a kept-alive connection, as no real server does.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with STATE_LOCK:
            STATE["connections"] += 1

    def send_body(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        command = json.loads(self.rfile.read(length) or b"{}")
        with STATE_LOCK:
            if command.get("reset"):
                STATE.update(fresh_state())
            if "latest" in command:
                STATE["latest"] = command["latest"]
            if "delay" in command:
                STATE["delay"] = command["delay"]
            if "retry_after" in command:
                STATE["retry_after"] = command["retry_after"]
            if "book_count" in command:
                STATE["book_count"] = command["book_count"]
            if "bloat" in command:
                STATE["bloat"] = command["bloat"]
            STATE["comics"].update(command.get("comics", {}))
            STATE["books"].update(command.get("books", {}))
            STATE["next"].update(command.get("next", {}))
            STATE["images"].update({name: bytes.fromhex(data) for name, data in command.get("images", {}).items()})
            STATE["texts"].update(command.get("texts", {}))
            STATE["html"].update(command.get("html", {}))
            if "fault" in command:
                STATE["fault"] = command["fault"]
                STATE["count"] = command.get("count")
                STATE["fault_only"] = command.get("only")
            STATE_LOCK.notify_all()
        self.send_body(200, b"{}")

    def take_fault(self, path):
        with STATE_LOCK:
            fault = STATE["fault"]
            if fault is None or (STATE.get("fault_only") and STATE["fault_only"] not in path):
                return None
            if STATE["count"] is not None:
                STATE["count"] -= 1
                if STATE["count"] <= 0:
                    STATE["fault"], STATE["count"] = None, None
            return fault

    def do_GET(self):
        if self.path.startswith("http://"):
            # A forward proxy's request: the absolute URL of another host.
            # It is answered from here, as a caching proxy would from its store.
            after_scheme = self.path[len("http://"):]
            host, _, rest = after_scheme.partition("/")
            with STATE_LOCK:
                STATE["proxied"].append(host)
            self.path = "/" + rest
        path = self.path.split("?")[0]
        if path == "/__stats":
            with STATE_LOCK:
                body = json.dumps({"total": STATE["total"], "hits": STATE["hits"], "requests": STATE["requests"],
                                   "agents": sorted(set(STATE["agents"])), "most_in_flight": STATE["most_in_flight"],
                                   "connections": STATE["connections"], "proxied": STATE["proxied"]}).encode()
            return self.send_body(200, body)
        with STATE_LOCK:
            STATE["in_flight"] += 1
            STATE["most_in_flight"] = max(STATE["most_in_flight"], STATE["in_flight"])
        try:
            self.answer(path)
        finally:
            with STATE_LOCK:
                STATE["in_flight"] -= 1

    def answer(self, path):
        with STATE_LOCK:
            STATE["total"] += 1
            STATE["hits"][path] = STATE["hits"].get(path, 0) + 1
            STATE["requests"].append(self.path)
            STATE["agents"].append(self.headers.get("User-Agent", ""))
        with STATE_LOCK:
            delay = STATE["delay"]
        if delay:
            time.sleep(delay)
        fault = self.take_fault(path)
        if fault == "hang":
            with STATE_LOCK:
                STATE_LOCK.wait_for(lambda: STATE["fault"] != "hang", timeout=60)
            fault = None
        if fault in ("500", "502", "503"):
            return self.send_body(int(fault), b"<html>server error</html>", "text/html")
        if fault == "429":
            return self.send_body(429, b"slow down", "text/plain", [("Retry-After", STATE["retry_after"])])
        if fault == "refuse":
            self.close_connection = True
            return
        if fault == "redirect-loop":
            return self.send_body(301, b"", "text/html", [("Location", self.path)])
        if fault == "stall":
            return self.stall()
        if fault and fault.startswith("redirect:"):
            return self.send_body(301, b"", "text/html", [("Location", fault[len("redirect:"):])])
        if fault == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = b"[" * 65536
            try:
                for _ in range(1024):  # at most 64 MiB, then give up
                    self.wfile.write(chunk)
            except OSError:
                pass
            return
        parts = [part for part in path.split("/") if part]
        if parts and parts[0] in ("ebooks", "cache", "files"):
            return self.serve_text(parts, fault)
        if parts and parts[0] == "books":
            return self.serve_books(path, parts, fault)
        if len(parts) == 2 and parts[0] == "images":
            return self.serve_image(parts[1], fault)
        if parts == ["info.0.json"]:
            body = comic_document(STATE["latest"])
        elif len(parts) == 2 and parts[1] == "info.0.json" and parts[0].isdigit():
            body = comic_document(int(parts[0]))
        else:
            body = None
        if body is None:
            return self.send_body(404, b"<html>404 Not Found</html>", "text/html")
        if self.send_damaged(fault, body):
            return
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        if fault == "etag-cr":
            etag += "\rX-Injected: 1"
        modified = "Mon, 01 Jan 2024 00:00:00 GMT"
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_body(200, body, headers=[("ETag", etag), ("Last-Modified", modified)])

    def serve_image(self, name, fault, in_book=False):
        with STATE_LOCK:
            body = STATE["images"].get(name)
        path = os.path.join(HERE, "images", os.path.basename(name))
        if in_book and body is None and not os.path.isfile(path):
            # A book's illustrations are not among the fixtures: each is
            # stood in for by the picture of its kind (cover.jpg, comic.png).
            stand_ins = {"jpg": "cover.jpg", "jpeg": "cover.jpg", "png": "comic.png", "gif": "animated.gif"}
            path = os.path.join(HERE, "images", stand_ins.get(name.rsplit(".", 1)[-1].lower(), name))
        if body is None and os.path.isfile(path) and not name.endswith(".py"):
            with open(path, "rb") as handle:
                body = handle.read()
        if body is None:
            return self.send_body(404, b"<html>404 Not Found</html>", "text/html")
        if fault == "truncated":
            body = body[: len(body) // 2]
        types = {"png": "image/png", "jpg": "image/jpeg", "gif": "image/gif"}
        self.send_body(200, body, types.get(name.rsplit(".", 1)[-1], "application/octet-stream"))

    def serve_text(self, parts, fault):
        """gutenberg.org's layout: /ebooks/N.txt.utf-8 redirects to
        /cache/epub/N/pgN.txt; older records name /files/N/N-8.txt. HTML
        editions: /ebooks/N.html.images redirects to
        /cache/epub/N/pgN-images.html; older ones are /files/N/N-h/N-h.htm;
        their pictures are under images/ beside them."""
        if len(parts) == 2 and parts[0] == "ebooks":
            for suffix, target in ((".txt.utf-8", "/cache/epub/%s/pg%s.txt"), (".html.images", "/cache/epub/%s/pg%s-images.html")):
                number = parts[1][: -len(suffix)]
                if parts[1].endswith(suffix) and number.isdigit():
                    return self.send_body(302, b"", "text/html", [("Location", target % (number, number))])
        if "images" in parts[:-1]:
            return self.serve_image(parts[-1], fault, in_book=True)
        if parts[-1].endswith(".html") or parts[-1].endswith(".htm"):
            number = parts[2] if len(parts) >= 3 and parts[:2] == ["cache", "epub"] else parts[1] if len(parts) >= 2 else ""
            body = html_file(int(number), older=parts[0] == "files") if number.isdigit() else None
            content_type = "text/html; charset=utf-8"
        else:
            number = parts[2] if len(parts) == 4 and parts[:2] == ["cache", "epub"] else parts[1] if len(parts) == 3 else ""
            body = text_file(int(number)) if number.isdigit() else None
            content_type = "text/plain; charset=utf-8"
        if body is None:
            return self.send_body(404, b"<html>404 Not Found</html>", "text/html")
        if fault == "truncated":
            body = body[: len(body) // 2]
        if fault == "endless":
            # A text that never ends (no length): the client must stop it.
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            line = b"All work and no play makes Jack a dull boy. " * 1489 + b"\n"
            try:
                for _ in range(16384):  # 1 GiB at most
                    self.wfile.write(line)
            except OSError:
                pass
            return
        self.send_body(200, body, content_type)

    def serve_books(self, path, parts, fault):
        query = self.path[len(path) + 1:] if "?" in self.path else ""
        if not path.endswith("/"):
            location = path + "/" + ("?" + query if query else "")
            return self.send_body(301, b"", "text/html; charset=utf-8", [("Location", location)])
        if len(parts) == 1:
            status, document = self.book_page(query)
        elif len(parts) == 2 and parts[1].isdigit():
            book = next((book for book in all_books() if book.get("id") == int(parts[1])),
                        DETAIL_BOOKS.get(int(parts[1])))
            status, document = (200, book) if book else (404, {"detail": "No Book matches the given query."})
        else:
            status, document = 404, {"detail": "Not found."}
        body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        if status == 200 and self.send_damaged(fault, body):
            return
        self.send_body(status, body)

    def send_damaged(self, fault, body):
        """Sends a damaged document in place of `body` if the fault says so."""
        if fault == "truncated":
            damaged = body[: len(body) // 2]
        elif fault == "html":
            return self.send_body(200, b"<!doctype html><title>oops</title>", "text/html") or True
        elif fault == "types":
            damaged = json.dumps({"num": "seven", "title": 42, "year": [], "img": {}, "id": "x", "count": "many",
                                  "next": 3, "results": {"a": 1}, "authors": "nobody"}).encode()
        elif fault == "utf8":
            cut = body.index(b'"', body.index(b":")) + 1
            damaged = body[:cut] + b"\xff\xfe\xc3(" + body[cut:]
        elif fault == "deep":
            damaged = b"[" * 100000 + b"]" * 100000
        else:
            return False
        self.send_body(200, damaged)
        return True

    def stall(self):
        """Promises a body, then sends it at one byte a second until the client gives up."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.close_connection = True
        try:
            for _ in range(100000):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(1)
        except OSError:
            pass

    def book_page(self, query):
        arguments = {key: values[-1] for key, values in parse_qs(query, keep_blank_values=True).items()}
        books = all_books()
        for word in arguments.get("search", "").lower().split():
            books = [book for book in books if word in searchable(book)]
        if arguments.get("languages"):
            wanted = set(arguments["languages"].lower().split(","))
            books = [book for book in books if wanted & set(book.get("languages", []))]
        if arguments.get("topic"):
            topic = arguments["topic"].lower()
            books = [book for book in books
                     if any(topic in text.lower() for text in book.get("subjects", []) + book.get("bookshelves", []))]
        if arguments.get("ids"):
            ids = {int(text) for text in arguments["ids"].split(",") if text.strip().isdigit()}
            books = [book for book in books if book.get("id") in ids]
        order = arguments.get("sort", "popular")
        if order == "ascending":
            books.sort(key=lambda book: book.get("id") or 0)
        elif order == "descending":
            books.sort(key=lambda book: -(book.get("id") or 0))
        else:
            books.sort(key=lambda book: -(book.get("download_count") or 0))
        try:
            page = int(arguments.get("page", "1"))
        except ValueError:
            page = 0
        pages = max(1, (len(books) + BOOKS_PER_PAGE - 1) // BOOKS_PER_PAGE)
        if not 1 <= page <= pages:
            return 404, {"detail": "Invalid page."}
        link = "http://%s/books/" % self.headers.get("Host", "127.0.0.1")
        next_link = self.link(link, query, page + 1) if page < pages else None
        with STATE_LOCK:
            next_link = STATE["next"].get(str(page), next_link)
        previous = None
        if page > 1:
            previous = self.link(link, query, page - 1 if page > 2 else None)
        results = books[(page - 1) * BOOKS_PER_PAGE: page * BOOKS_PER_PAGE]
        with STATE_LOCK:
            count = STATE["book_count"] if STATE["book_count"] is not None else len(books)
        return 200, {"count": count, "next": next_link, "previous": previous, "results": results}

    @staticmethod
    def link(base, query, page):
        """As DRF's replace_query_param: the query's parameters sorted, page set or removed."""
        arguments = {key: value for key, value in parse_qsl(query, keep_blank_values=True) if key != "page"}
        if page is not None:
            arguments["page"] = str(page)
        encoded = urlencode(sorted(arguments.items()))
        return base + ("?" + encoded if encoded else "")


def all_books():
    with STATE_LOCK:
        overrides = dict(STATE["books"])
    books = [overrides.pop(str(book["id"]), book) for book in FIXTURE_BOOKS]
    return books + list(overrides.values())


def searchable(book):
    names = " ".join(author.get("name") or "" for author in book.get("authors", []))
    return (str(book.get("title", "")) + " " + names).lower()


class Server(ThreadingHTTPServer):
    # The default listen backlog of 5 drops the SYNs of a client opening
    # eight connections at once, and each dropped SYN costs a second.
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # Clients that hang up mid-answer are what the fault tests are about.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if "--tls" in sys.argv:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(HERE, "selfsigned.crt"), os.path.join(HERE, "selfsigned.key"))
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Stop when the test that started us goes away.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
