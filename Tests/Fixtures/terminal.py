#!/usr/bin/python3
"""A pseudo-terminal of a fixed size for the tests of `comics browse`.

Runs one command in a pty and reads its screen back through pyte (Debian's
python3-pyte, hence /usr/bin/python3). The test talks to it with one JSON
object per line on stdin, and reads one JSON answer per line on stdout:

  {"op": "start", "argv": [...], "env": {...}, "rows": 20, "columns": 80}
  {"op": "send", "text": "j"}                 bytes to type (escapes allowed)
  {"op": "wait", "text": "Bill Nye", "timeout": 5}
                                              until the screen shows it
  {"op": "wait_gone", "text": "loading", "timeout": 5}
  {"op": "wait_raw", "text": "\u001b_G", "count": 1, "timeout": 5}
                                              until the program has written
                                              that (graphics pyte cannot
                                              show) at least `count` times
  {"op": "screen"}                            the screen once output settles
  {"op": "resize", "rows": 30, "columns": 100}
  {"op": "signal", "name": "TERM"}
  {"op": "finish", "timeout": 5}              waits for the exit: status, and
                                              whether the terminal modes
                                              (stty -g) are as before

Every answer has "screen" (its lines, right-trimmed), "alive", "ok"
(false when a wait timed out) and "colored_cells" (cells whose background
is not the default).
"""
import fcntl
import json
import os
import select
import signal
import struct
import sys
import termios
import time

import pyte

state = {}


class Screen(pyte.Screen):
    """pyte's screen with the three xterm sequences ncurses uses for
    xterm-256color that pyte lacks: SU and SD (scroll the region up or
    down: terminfo's indn and rin) and REP (repeat the last character)."""

    def __init__(self, columns, rows):
        super().__init__(columns, rows)
        self.last_drawn = " "

    def draw(self, data):
        super().draw(data)
        if data:
            self.last_drawn = data[-1]

    def scroll_up(self, count=None, *args, **kwargs):
        self.scroll(count, at_bottom=True)

    def scroll_down(self, count=None, *args, **kwargs):
        self.scroll(count, at_bottom=False)

    def scroll(self, count, at_bottom):
        """Scrolls the region `count` lines, as index (up) or reverse index (down)
        does from its bottom or top row, leaving the cursor where it was."""
        top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        row = self.cursor.y
        self.cursor.y = bottom if at_bottom else top
        for _ in range(count or 1):
            (self.index if at_bottom else self.reverse_index)()
        self.cursor.y = row

    def repeat_last(self, count=None, *args, **kwargs):
        self.draw(self.last_drawn * (count or 1))


class Stream(pyte.Stream):
    csi = dict(pyte.Stream.csi, S="scroll_up", T="scroll_down", b="repeat_last")


def read_available(timeout):
    """Feeds the emulator whatever the program writes within `timeout`."""
    master = state["master"]
    ready, _, _ = select.select([master], [], [], timeout)
    if not ready:
        return False
    try:
        data = os.read(master, 65536)
    except OSError:
        return False
    if not data:
        return False
    text = data.decode("utf-8", errors="replace")
    state["raw"] = state.get("raw", "") + text
    state["stream"].feed(text)
    return True


def settle(quiet=0.3, limit=5.0):
    deadline = time.time() + limit
    while time.time() < deadline and read_available(quiet):
        pass


def screen():
    return [line.rstrip() for line in state["screen"].display]


def alive():
    if "status" in state:
        return False
    pid, status = os.waitpid(state["pid"], os.WNOHANG)
    if pid == 0:
        return True
    state["status"] = os.waitstatus_to_exitcode(status)
    return False


def colored_cells():
    """How many cells have a background colour other than the default."""
    buffer = state["screen"].buffer
    return sum(1 for row in buffer.values() for cell in row.values() if cell.bg != "default")


def answer(ok=True, **extra):
    reply = {"ok": ok, "screen": screen(), "alive": alive(), "colored_cells": colored_cells()}
    reply.update(extra)
    print(json.dumps(reply), flush=True)


def set_size(rows, columns):
    fcntl.ioctl(state["master"], termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def start(command):
    rows, columns = command.get("rows", 24), command.get("columns", 80)
    master, slave = os.openpty()
    state["modes"] = termios.tcgetattr(slave)
    state["slave_name"] = os.ttyname(slave)
    pid = os.fork()
    if pid == 0:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        for descriptor in (0, 1, 2):
            os.dup2(slave, descriptor)
        os.close(master)
        os.close(slave)
        os.execve(command["argv"][0], command["argv"], command["env"])
    state.update(master=master, slave=slave, pid=pid)
    state["screen"] = Screen(columns, rows)
    state["stream"] = Stream(state["screen"])
    settle()
    answer()


def wait(command, gone=False):
    deadline = time.time() + command.get("timeout", 5)
    while time.time() < deadline:
        shown = "\n".join(screen())
        if (command["text"] in shown) != gone:
            settle(0.1, 1.0)
            return answer()
        read_available(0.05)
    answer(False)


def wait_raw(command):
    deadline = time.time() + command.get("timeout", 5)
    wanted = command.get("count", 1)
    while time.time() < deadline and state.get("raw", "").count(command["text"]) < wanted:
        read_available(0.05)
    count = state.get("raw", "").count(command["text"])
    answer(count >= wanted, raw_count=count)


def finish(command):
    deadline = time.time() + command.get("timeout", 5)
    while alive() and time.time() < deadline:
        read_available(0.05)
    if alive():
        return answer(False)
    settle(0.05, 0.5)
    modes = termios.tcgetattr(state["slave"])
    answer(status=state["status"], modes_restored=modes == state["modes"])


def main():
    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        if op == "start":
            start(command)
        elif op == "send":
            os.write(state["master"], command["text"].encode())
            settle()
            answer()
        elif op == "wait":
            wait(command)
        elif op == "wait_gone":
            wait(command, gone=True)
        elif op == "wait_raw":
            wait_raw(command)
        elif op == "screen":
            settle()
            answer()
        elif op == "resize":
            set_size(command["rows"], command["columns"])
            state["screen"].resize(command["rows"], command["columns"])
            os.kill(state["pid"], signal.SIGWINCH)
            settle()
            answer()
        elif op == "signal":
            os.kill(state["pid"], getattr(signal, "SIG" + command["name"]))
            settle(0.2, 1.0)
            answer()
        elif op == "finish":
            finish(command)
    if "pid" in state and alive():
        os.kill(state["pid"], signal.SIGKILL)


if __name__ == "__main__":
    main()
