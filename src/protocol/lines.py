"""Lines over pipes, for both ends of the protocol: a reader that waits with a deadline (or
only looks), and a writer that gives up at a deadline instead of blocking on a full pipe."""
import collections
import errno
import os
import select
import time

MAX_LINE = 1 << 20          # a longer line is not the protocol: the reader refuses it (LineTooLong)


class LineTooLong(Exception):
    pass


class LineReader:
    """Lines (without their end, \\n or \\r\\n, decoded as UTF-8) read from a file descriptor.
    ``watch``, another descriptor (a pidfd: readable once the writer process has exited), ends
    the input as soon as it is readable and nothing is left to read: a program whose
    descendants still hold its pipe has ended all the same."""

    def __init__(self, fd, watch=None):
        self.fd = fd
        self.watch = watch
        self.buf = bytearray()
        self.lines = collections.deque()
        self.eof = False
        self.skipping = False       # the rest of a line too long to keep is being dropped

    def _take(self, timeout):
        """Read what is there, waiting at most ``timeout`` seconds (None: as long as it
        takes); False if nothing came in time."""
        ready, _, _ = select.select([self.fd] + ([self.watch] if self.watch is not None else []),
                                    [], [], timeout)
        if not ready:
            return False
        if self.fd not in ready:      # the writer has exited and the pipe holds nothing more
            ready, _, _ = select.select([self.fd], [], [], 0)
        if not ready:
            self.eof = True
            if self.buf and not self.skipping:
                self._line(bytes(self.buf))
            self.buf.clear()
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError as e:
            if e.errno in (errno.EAGAIN, errno.EINTR):
                return True
            data = b""              # a broken pipe reads as its end
        if not data:
            self.eof = True
            if self.buf and not self.skipping:
                self._line(bytes(self.buf))
            self.buf.clear()
            return True
        if self.skipping:
            i = data.find(b"\n")
            if i < 0:
                return True
            self.skipping = False
            data = data[i + 1:]
        self.buf += data
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                break
            self._line(bytes(self.buf[:i]))
            del self.buf[:i + 1]
        if len(self.buf) > MAX_LINE:
            # the lines before it stay readable, and reading goes on after its end
            self.buf.clear()
            self.skipping = True
            raise LineTooLong(f"a line longer than {MAX_LINE} bytes")
        return True

    def _line(self, raw):
        self.lines.append(raw.rstrip(b"\r").decode("utf-8", "replace"))

    def readline(self, timeout=None):
        """The next line; None at the end of the input; TimeoutError after ``timeout``;
        LineTooLong for a line longer than ``MAX_LINE`` (dropped: the next call reads on
        after it)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.lines:
            if self.eof:
                return None
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._take(left) and deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError
        return self.lines.popleft()

    def poll(self):
        """The lines that have arrived, without waiting."""
        while not self.eof and self._take(0):
            pass
        out = list(self.lines)
        self.lines.clear()
        return out


def write_line(fd, text):
    """Write one line, blocking (the engine's side: its reader is the arena)."""
    data = (text + "\n").encode("utf-8")
    while data:
        n = os.write(fd, data)
        data = data[n:]


class PipeWriter:
    """Lines to a child's stdin that never block past a deadline: a program that stops
    reading fills the pipe, and the arena must still keep its clock."""

    def __init__(self, fd):
        os.set_blocking(fd, False)
        self.fd = fd

    def send(self, lines, deadline):
        """Write ``lines``; TimeoutError at ``deadline`` (monotonic seconds),
        BrokenPipeError if the reader is gone."""
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            _, ready, _ = select.select([], [self.fd], [], left)
            if not ready:
                continue
            try:
                n = os.write(self.fd, data)
            except BlockingIOError:
                continue
            data = data[n:]
