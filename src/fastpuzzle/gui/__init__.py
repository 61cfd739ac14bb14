"""The puzzle page: a local web page to enter, shuffle and solve boards, compare methods and
watch two searches run side by side, expansion by expansion (:mod:`fastpuzzle.trace`).

``fastpuzzle gui`` (or :func:`serve`) starts a server on this machine and opens the page in the
browser. The page needs no network access; the searches run in this process, one per page, and
a Stop button cancels them. See :mod:`fastpuzzle.gui.server` for what the server refuses.
"""

from __future__ import annotations

import sys
import webbrowser

from fastpuzzle.gui.server import PuzzleServer

__all__ = ["PuzzleServer", "serve"]


def serve(host: str = "127.0.0.1", port: int = 0, *, open_browser: bool = True) -> None:
    """Serve the puzzle page until Ctrl-C.

    Parameters
    ----------
    host : str
        Address to listen on (127.0.0.1: this machine only).
    port : int
        Port (0: any free one). The address is printed on stdout.
    open_browser : bool
        Open the page in the default browser.
    """
    server = PuzzleServer(host, port)
    if server.public:
        print(
            f"fastpuzzle: warning: listening on {host}, beyond this machine: whoever can reach "
            "it and has the address below (it holds the page's token) can run searches here",
            file=sys.stderr,
            flush=True,
        )
    print(f"fastpuzzle: the puzzle page is at {server.url} (Ctrl-C stops the server)", flush=True)
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("fastpuzzle: stopping the server", file=sys.stderr)
    finally:
        server.close()
