"""The puzzle page's web server: the standard library's threading HTTP server, locked down.

Why the standard library: the page needs a handful of JSON calls and one HTML file, and the
searches run on threads. Weighed against uvicorn (with h11) and aiohttp after a load audit:
what those would bring (a large listen backlog, IPv6, refusing a repeated Host or
Content-Length) is an attribute or a few lines here, while what the audit needed most - a
deadline for receiving a whole request, against silent and slow clients - neither has (uvicorn
arms its keep-alive timer only after a response and cancels it on every byte received; aiohttp
has a keep-alive timeout but no request-read deadline), so it would be written by hand either
way, against a framework's internals; the rest (the page's token, JSON checks, job memory) is
this application's in any server. So, with no dependency:

- bound to 127.0.0.1 by default (an IPv6 address such as ``::1`` works too); bound beyond
  this machine (``--host 0.0.0.0``), every request must carry the page's token, which the
  address printed holds, and ``fastpuzzle gui`` warns;
- the ``Host`` header must name this server (a DNS-rebinding page cannot reach it), and an
  ``Origin`` header, required on every POST, must be this server's own;
- POSTs carry the page's token (in a header, which a cross-origin page cannot set without a
  preflight this server never grants) and a JSON body of at most :data:`MAX_BODY` bytes;
- only ``/`` and ``/api/...`` exist: nothing reads files through the page;
- header lines are checked as RFC 9112 asks (one Host, one valid Content-Length, no
  Transfer-Encoding, no body on a GET); an error to a POST closes its connection;
- a listen backlog of 1024, and at most :data:`MAX_CONNECTIONS` connections served at once
  (fewer where the process may open few descriptors); more wait in the backlog, so searches
  always have descriptors left;
- a client has :data:`READ_TIMEOUT` seconds to send each whole request (an idle kept-alive
  connection included), so a slow or silent client cannot hold a thread for long; while three
  quarters of the slots are taken, one that has sent nothing is closed after
  :data:`CROWDED_IDLE` seconds, and one whose request has begun but not arrived whole after
  :data:`CROWDED_REQUEST` seconds;
- a request line of another HTTP version than 1.x (HTTP/0.9's, without a version, included),
  a Content-Length of too many digits, a request line or headers too long (414, 431) and a
  method other than GET, HEAD and POST (501) are answered with a status line and a JSON error,
  as every refusal is (the standard handler's HTML pages are never sent);
- a client that goes away prints nothing; ended searches are not kept for long;
- every request is checked (:mod:`fastpuzzle.gui.jobs`); errors are JSON with a 4xx status.
"""

from __future__ import annotations

import errno
import io
import ipaddress
import json
import math
import re
import secrets
import socket
import sys
import threading
import time
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fastpuzzle.errors import FastPuzzleError
from fastpuzzle.gui import jobs
from fastpuzzle.gui.jobs import Jobs, RequestError
from fastpuzzle.render import REPLAY_JS

__all__ = [
    "CROWDED_IDLE",
    "CROWDED_REQUEST",
    "MAX_BODY",
    "MAX_CONNECTIONS",
    "READ_TIMEOUT",
    "PuzzleServer",
]

#: The largest request body accepted (a 100x100 board and its goal fit several times over).
MAX_BODY = 256 * 1024
#: Seconds a client has to send a whole request (line, headers and body), counted from when the
#: server starts waiting for it; also the longest wait on one read or write of the socket.
READ_TIMEOUT = 10.0
#: Connections served at once (each holds a thread and a descriptor), at most.
MAX_CONNECTIONS = 256
#: Seconds a connection that has sent nothing of its next request keeps its slot while three
#: quarters of the slots are taken (the read timeout otherwise).
CROWDED_IDLE = 0.5
#: Seconds a request that has begun to arrive has, from its first byte, to arrive whole while
#: three quarters of the slots are taken (the read timeout otherwise): the page sends each
#: request at once, so slow clients must not hold their slots for the whole read timeout
#: (``gui_load.py``; docs/performance.rst, "Where the constants come from").
CROWDED_REQUEST = 1.0
_IDLE_POLL = 0.1
_SHUTDOWN_POLL = 0.05  # serve_in_thread: how soon shutdown() is heard

#: Headers a request may carry once: RFC 9112 requires it of Host and Content-Length; for the
#: others this server checks, a second copy would leave which one counts ambiguous.
_SINGLE_HEADERS = ("Host", "Content-Length", "Content-Type", "Origin", "X-Fastpuzzle-Token")
_DIGITS = re.compile("[0-9]+")  # str.isdigit() also takes "²" and other digits
_VERSION = re.compile(r"HTTP/([0-9]+)\.[0-9]+")

# accept() errors that mean "no descriptors or memory now": the listening socket stays readable,
# so without a pause the serving loop would spin a core until one is freed.
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}

_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class PuzzleServer(ThreadingHTTPServer):
    """The server of one ``fastpuzzle gui`` session.

    Parameters
    ----------
    host : str
        Address to listen on (default 127.0.0.1: this machine only).
    port : int
        Port (0: any free one; :attr:`url` says which).
    read_timeout : float
        Seconds a client has to send each request (:data:`READ_TIMEOUT`); a connection that
        takes longer is closed within twice this.
    max_connections : int or None
        Connections served at once; None: :data:`MAX_CONNECTIONS`, or a quarter of the
        descriptors this process may open if that is fewer. Further clients wait to be accepted.
    """

    daemon_threads = True
    # socketserver listens with a backlog of 5: of 200 page requests at once, about half waited
    # for the kernel's SYN retries (1, 3, 7, 15 s...). Linux caps this at net.core.somaxconn.
    request_queue_size = 1024

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        read_timeout: float = READ_TIMEOUT,
        max_connections: int | None = None,
    ) -> None:
        if not read_timeout > 0:
            raise ValueError(f"expected a positive read_timeout, got {read_timeout!r}")
        if max_connections is None:
            max_connections = _default_max_connections()
        if max_connections < 1:
            raise ValueError(f"expected max_connections >= 1, got {max_connections!r}")
        self.read_timeout = read_timeout
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)
        self._holding: set[socket.socket] = set()  # accepted connections, each holds a slot
        self._holding_lock = threading.Lock()
        address, name = _address_and_name(host)
        if ":" in address:  # an IPv6 address: socketserver's default socket is IPv4
            self.address_family = socket.AF_INET6
        super().__init__((address, port), _Handler)
        self.token = secrets.token_urlsafe(24)
        self.jobs = Jobs()
        bound_port = self.server_address[1]
        names = {name, "127.0.0.1", "localhost"} if name in ("127.0.0.1", "localhost") else {name}
        self.allowed_hosts = {f"{name}:{bound_port}" for name in names}
        #: Listening beyond this machine: every request must carry the page's token (the page
        #: itself as ``/?token=...``, in the address printed), and on every interface (0.0.0.0,
        #: ::) any Host is admitted, the token standing in for the Host check.
        self.public, self.any_host = _reach(address)
        self.url = f"http://{'localhost' if name == '127.0.0.1' else name}:{bound_port}/"
        if self.public:
            self.url += f"?token={self.token}"
        page = resources.files("fastpuzzle.gui").joinpath("page.html").read_text("utf-8")
        page = page.replace("/*__FASTPUZZLE_REPLAY__*/", REPLAY_JS)
        self.page = page.replace("__FASTPUZZLE_TOKEN__", self.token).encode("utf-8")

    def get_request(self) -> tuple[socket.socket, Any]:
        """Accept a connection once fewer than ``max_connections`` are open."""
        # Waiting here leaves further clients in the listen backlog, where they cost no
        # descriptor. The wait is short so that shutdown() is heard: socketserver's loop takes
        # an OSError from get_request as "nothing to accept", checks for shutdown and retries.
        if not self._slots.acquire(timeout=0.5):
            raise OSError("all connection slots busy")
        try:
            request, address = super().get_request()
        except OSError as error:
            self._slots.release()
            if error.errno in _OUT_OF_RESOURCES:
                time.sleep(0.1)
            raise
        with self._holding_lock:
            self._holding.add(request)
        return request, address

    def crowded(self) -> bool:
        """Whether three quarters of the connection slots are taken."""
        with self._holding_lock:
            return len(self._holding) * 4 >= self.max_connections * 3

    def shutdown_request(self, request: Any) -> None:
        """Close a connection and free its slot."""
        # socketserver may close a connection twice (Ctrl-C while handing it to its thread):
        # only the first close frees the slot.
        try:
            super().shutdown_request(request)
        finally:
            with self._holding_lock:
                held = request in self._holding
                self._holding.discard(request)
            if held:
                self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Say nothing of clients that went away or were too slow; print anything else."""
        # socketserver prints a traceback for every exception in a connection's thread, on the
        # terminal of `fastpuzzle gui`: a page closed mid-answer is not worth one.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    def close(self) -> None:
        """Stop every running search, then the server."""
        self.jobs.stop_all()
        self.server_close()

    def serve_in_thread(self) -> threading.Thread:
        """Serve on a background thread (for tests and notebooks); returns the thread."""
        # A short poll so that shutdown() returns at once (socketserver's default waits up to
        # half a second for the loop to look, which every test's server paid on closing).
        thread = threading.Thread(
            target=self.serve_forever,
            kwargs={"poll_interval": _SHUTDOWN_POLL},
            name="fastpuzzle-gui",
            daemon=True,
        )
        thread.start()
        return thread


def _address_and_name(host: str) -> tuple[str, str]:
    # The address to bind and the name in URLs and Host headers: an IPv6 address is written
    # in brackets there ("[::1]:8000"), and given with or without them.
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:  # a name such as localhost
        return host, host
    if address.version == 6:
        return address.compressed, f"[{address.compressed}]"
    return bare, bare


def _reach(address: str) -> tuple[bool, bool]:
    """``(public, every interface)`` of a bound address: whether peers beyond this machine can
    reach it (anything but a loopback address or ``localhost``), and whether it is a wildcard."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # a name: only localhost is known to stay on this machine
        return address != "localhost", False
    return not ip.is_loopback, ip.is_unspecified


def _header_problem(headers: Message, command: str, version: str) -> str | None:
    # Why a request's header lines are refused with 400 (RFC 9112, 3.2 and 6), or None.
    for name in _SINGLE_HEADERS:
        if len(headers.get_all(name, [])) > 1:
            return f"more than one {name} header"
    if version == "HTTP/1.1" and headers.get("Host") is None:
        return "expected a Host header"
    if headers.get("Transfer-Encoding") is not None:
        # Its body would not be read, and left on the connection as the next request.
        return "Transfer-Encoding is not accepted: send a Content-Length"
    length = headers.get("Content-Length")
    if length is not None and not _DIGITS.fullmatch(length):
        return f"invalid Content-Length {length!r}"
    if command != "POST" and length not in (None, "0"):
        return f"a {command} takes no body"
    return None


def _quoted(text: object, limit: int = 60) -> str:
    # A client's text in a message: quoted, and cut (a request line may be 64 KiB).
    shown = repr(str(text)[:limit])
    return shown if len(str(text)) <= limit else shown + "..."


def _refusal(code: int, command: object, message: str | None, explain: str | None) -> str:
    """The JSON error of a refusal by the standard handler: lower-case, in this server's words
    where it has its own, else the standard reason, quoting what it quotes."""
    if code == HTTPStatus.REQUEST_URI_TOO_LONG:
        return "request line over 65,536 bytes"
    if code == HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE:
        # explain: "got more than 100 headers", "got more than 65536 bytes when reading ..."
        return f"request headers too large: {explain or message or 'refused'}"
    if code == HTTPStatus.NOT_IMPLEMENTED:
        return f"method {_quoted(command)} not supported: send GET, HEAD or POST"
    reason = message
    if not reason:
        try:
            reason = HTTPStatus(code).phrase
        except ValueError:  # a code http.server has no phrase for
            reason = "refused"
    return reason[:1].lower() + reason[1:200]


def _same_token(given: str, token: str) -> bool:
    # compare_digest takes ASCII str only (TypeError otherwise), and the token is ASCII: a
    # header that is not cannot match. Only that much is told by the time taken.
    return given.isascii() and secrets.compare_digest(given, token)


def _default_max_connections() -> int:
    # A quarter of the descriptor limit leaves the rest to searches (tables), the page's files
    # and the interpreter, under any ulimit.
    try:
        import resource
    except ImportError:  # Windows: no descriptor limit to share
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft // 4))


class _DeadlineReader(io.RawIOBase):
    # The socket as the handler reads it: no read starts after `deadline`, and each waits in
    # short slices, so a request that trickles in (a slow-loris client, or a body shorter than
    # its Content-Length) ends by the deadline, where a per-read timeout alone would let a byte
    # every few seconds hold the thread for ever.
    #
    # While the server is crowded, a connection gives its slot up sooner: after CROWDED_IDLE
    # seconds if it has sent nothing of its request yet (`idle_since` set: silent connections,
    # each holding a slot for the whole read timeout, kept a page's request waiting for one;
    # see CROWDED_IDLE), after CROWDED_REQUEST seconds from the request's first byte
    # (`begun`) if it has not arrived whole by then.

    def __init__(self, sock: socket.socket, server: PuzzleServer) -> None:
        super().__init__()
        self._sock = sock
        self._server = server
        self.deadline = math.inf
        self.idle_since: float | None = None
        self.begun = math.inf

    def readable(self) -> bool:
        return True

    def expect_request(self) -> None:
        """Start waiting for the next request: its deadline is counted from now."""
        self.idle_since = time.monotonic()
        self.deadline = self.idle_since + self._server.read_timeout
        self.begun = math.inf

    def _crowded_out(self, now: float) -> str | None:
        # Why a crowded server takes this connection's slot back now, or None.
        idle = self.idle_since is not None and now - self.idle_since >= CROWDED_IDLE
        slow = self.idle_since is None and now - self.begun >= CROWDED_REQUEST
        if not (idle or slow) or not self._server.crowded():
            return None
        if idle:
            return "the server is busy, and this connection sent nothing"
        return "the server is busy, and this request did not arrive whole in time"

    def readinto(self, buffer: Any) -> int:
        # In short slices (the socket's timeout; select() takes no descriptor past 1023, and a
        # selector would cost one more), so that a crowded server is seen while waiting.
        try:
            while True:
                now = time.monotonic()
                if now >= self.deadline:
                    raise TimeoutError("the request did not arrive in time")
                why = self._crowded_out(now)
                if why is not None:
                    raise TimeoutError(why)
                self._sock.settimeout(min(_IDLE_POLL, self.deadline - now))
                try:
                    received = self._sock.recv_into(buffer)
                except TimeoutError:
                    continue
                if self.idle_since is not None:
                    self.idle_since = None
                    self.begun = now
                return received
        finally:
            self._sock.settimeout(self._server.read_timeout)


class _Handler(BaseHTTPRequestHandler):
    server: PuzzleServer
    protocol_version = "HTTP/1.1"
    raw_requestline: bytes  # set by handle_one_request
    _reader: _DeadlineReader

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.read_timeout)  # every read and every write
        self.rfile.close()  # the socket's own file, replaced by the deadline reader
        self._reader = _DeadlineReader(self.connection, self.server)
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        # The deadline covers the wait for the request line too: an idle connection is closed
        # (sooner while the server is crowded).
        self._reader.expect_request()
        super().handle_one_request()

    def parse_request(self) -> bool:
        # The standard parser takes repeated and malformed framing headers; these are refused,
        # and the connection closed: where the next request starts is unclear.
        if self._refused_version():
            return False
        if not super().parse_request():
            return False
        problem = _header_problem(self.headers, self.command, self.request_version)
        if problem is None:
            return True
        self.close_connection = True
        self._error(400, problem)
        return False

    def _refused_version(self) -> bool:
        # The standard parser refuses an HTTP version other than 1.x (505) or a malformed one
        # (400) before it records the version, so its answer went out as HTTP/0.9's: no status
        # line. Those are refused here, with a status line, and the connection closed; so is an
        # HTTP/0.9 request line ("GET /", no version), which the standard parser served with a
        # bare body.
        self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        words = self.requestline.split()
        if len(words) == 2 and words[0].isascii() and words[0].isalpha():
            self.command, self.request_version = words[0], "HTTP/1.1"
            self.close_connection = True
            line = _quoted(self.requestline)
            self._error(505, f"HTTP/0.9 not supported (no version in {line}): send HTTP/1.1")
            return True
        if len(words) < 3:
            return False
        version = _VERSION.fullmatch(words[-1])
        if version is not None and version.group(1) == "1":
            return False
        self.command, self.request_version = words[0], "HTTP/1.1"
        self.close_connection = True
        if version is None:
            self._error(400, f"bad request version {words[-1][:40]!r}")
        else:
            self._error(505, f"HTTP version {words[-1][:40]!r} not supported: send HTTP/1.1")
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Every refusal of the standard handler (a request line over 64 KiB: 414, header lines
        too long or too many: 431, a method it has no ``do_`` for: 501, a malformed line: 400)
        as this server's: a status line and a JSON error, the connection closed."""
        # http.server answers these with an HTML page, where the page's calls read JSON.
        self.close_connection = True
        if not str(getattr(self, "request_version", "")).startswith("HTTP/1."):
            self.request_version = "HTTP/1.1"
        self._error(code, _refusal(code, self.command, message, explain))

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the command line prints the address and errors only

    # -- answers ----------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        for name, value in _SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode("utf-8"), "application/json")

    def _error(self, status: int, message: str) -> None:
        if self.command == "POST":
            # Its body may be unread (a refusal comes first): left on the connection, it would
            # be taken as the next request. The page opens another connection.
            self.close_connection = True
        self._json(status, {"error": message})

    # -- checks -----------------------------------------------------------------------------

    def _origin_ok(self, required: bool) -> bool:
        origin = self.headers.get("Origin")
        if origin is None:
            return not required
        if self.server.any_host:
            # The page's own origin is whatever Host the browser used to reach it.
            return origin == f"http://{self.headers.get('Host', '')}"
        return origin in {f"http://{host}" for host in self.server.allowed_hosts}

    def _body(self) -> dict[str, Any]:
        length_text = self.headers.get("Content-Length")
        if length_text is None:  # else digits: checked with the headers
            raise RequestError("expected a Content-Length", 411)
        # Past a few digits it is too long whatever it says (int() refuses over 4,300 digits
        # with a message about Python's limits).
        digits = length_text.lstrip("0")
        length = int(digits or "0") if len(digits) <= len(str(MAX_BODY)) else MAX_BODY + 1
        if length > MAX_BODY:
            raise RequestError(f"request body over {MAX_BODY:,} bytes", 413)
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip()
        if content_type != "application/json":
            raise RequestError("expected Content-Type: application/json", 415)
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            self.close_connection = True
            raise RequestError("the request body did not arrive in time", 408) from None
        if len(raw) < length:
            self.close_connection = True
            raise RequestError("the request body is shorter than its Content-Length")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise RequestError(f"the body is not JSON: {error}") from None
        except RecursionError:  # the parser's guard; no request of the page nests beyond 3 levels
            raise RequestError("the body is nested too deeply") from None
        if not isinstance(body, dict):
            raise RequestError("expected a JSON object")
        return body

    # -- routes -----------------------------------------------------------------------------

    def _refused(self, *, posting: bool) -> bool:
        # Sends the 403 and returns True for a foreign Host, another site's Origin (required on
        # a POST) or, on a POST, a missing or wrong page token.
        server = self.server
        if not server.any_host and self.headers.get("Host", "") not in server.allowed_hosts:
            self._error(403, "unknown Host: open the address fastpuzzle gui printed")
        elif not self._origin_ok(required=posting):
            self._error(403, "requests from other sites are refused")
        elif (posting or server.public) and not self._token_ok(posting=posting):
            self._error(403, "missing or wrong page token: open the address fastpuzzle gui printed")
        else:
            return False
        return True

    def _token_ok(self, *, posting: bool) -> bool:
        # The page's token: in a header (the page's calls), or for a GET of the page on a
        # server that listens beyond this machine, in the address's query.
        if _same_token(self.headers.get("X-Fastpuzzle-Token", ""), self.server.token):
            return True
        if posting:
            return False
        given = parse_qs(urlsplit(self.path).query).get("token", [""])[0]
        return _same_token(given, self.server.token)

    def do_GET(self) -> None:
        if self._refused(posting=False):
            return
        url = urlsplit(self.path)
        if url.path == "/":
            self._send(200, self.server.page, "text/html; charset=utf-8")
        elif url.path == "/api/catalogue":
            self._json(200, jobs.catalogue())
        elif url.path == "/api/job":
            job_id = parse_qs(url.query).get("id", [""])[0]
            try:
                self._json(200, self.server.jobs.view(job_id))
            except RequestError as error:
                self._error(error.status, str(error))
        else:
            self._error(404, "not found")

    do_HEAD = do_GET

    def do_POST(self) -> None:
        if self._refused(posting=True):
            return
        try:
            body = self._body()
            page = body.get("page")
            if not isinstance(page, str) or not 1 <= len(page) <= 64:
                raise RequestError("expected the page's id")
            self._json(200, self._post(urlsplit(self.path).path, page, body))
        except RequestError as error:
            self._error(error.status, str(error))
        except (FastPuzzleError, ValueError, TypeError) as error:
            self._error(400, str(error))
        except Exception as error:  # the page hears of it; the server goes on
            self._error(500, f"{type(error).__name__}: {error}")

    def _post(self, path: str, page: str, body: dict[str, Any]) -> Any:
        if path == "/api/board":
            return jobs.new_board(body)
        if path == "/api/check":
            return jobs.check_board(body)
        if path == "/api/solve":
            return self.server.jobs.solve(page, body).view()
        if path == "/api/compare":
            return self.server.jobs.compare(page, body).view()
        if path == "/api/trace":
            return self.server.jobs.trace(page, body).view()
        if path == "/api/stop":
            job = self.server.jobs.get(str(body.get("job", "")))
            if job.page != page:
                raise RequestError("that search belongs to another page", 403)
            job.stop.set()
            return job.view()
        raise RequestError("not found", 404)
