#!/usr/bin/env bash
# `make demo`: comics without the network. The tests' loopback server serves
# the fixture comics and books, a scratch database holds the cache, and
# comics browses them on a terminal (or lists them off one). Everything it
# made is removed when it ends. Arguments replace `browse` / `list`.
set -euo pipefail
comics="$1"
shift
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/comics-demo-XXXXXX")"
server=""
cleanup() {
    exec 4>&- 2>/dev/null || true
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The server serves until its standard input closes: a FIFO this script
# holds open, so it stops with the script however that ends.
mkfifo "$scratch/keep-serving"
python3 "$here/server.py" < "$scratch/keep-serving" > "$scratch/port" &
server=$!
exec 4> "$scratch/keep-serving"
for _ in $(seq 100); do
    [ -s "$scratch/port" ] && break
    sleep 0.05
done
port="$(head -n 1 "$scratch/port")"
[ -n "$port" ] || { echo "demo: the fixture server did not start" >&2; exit 1; }

export HOME="$scratch/home" COMICS_DB="$scratch/comics.db"
export COMICS_XKCD_URL="http://127.0.0.1:$port" COMICS_GUTENDEX_URL="http://127.0.0.1:$port"
mkdir -p "$HOME"
if [ "$#" -gt 0 ]; then
    "$comics" "$@"
elif [ -t 0 ] && [ -t 1 ]; then
    echo "demo: fixture comics 1–200 and 64 books from 127.0.0.1:$port; q quits" >&2
    "$comics" browse
else
    "$comics" list
fi
