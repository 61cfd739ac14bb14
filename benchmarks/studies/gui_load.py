"""The puzzle page's server under load: simultaneous clients, and memory after many page loads.

Starts ``fastpuzzle gui``'s server from each source tree given (one after the other, each in its
own process on 127.0.0.1) and reports, for each:

- of ``--clients`` simultaneous page requests, how many were answered within ``--wait`` seconds,
  and the slowest answer;
- the server's resident memory before and after ``--loads`` page loads, each with a fast solve
  of a random 60x60 board (``--side``), polled to its end as the page does.

Usage (the same run compares two trees, e.g. a copy of the old ``src`` and the current one)::

    PYTHONPATH=src python -m benchmarks.studies.gui_load /tmp/old/src src

Every loop is bounded in count and time, and only the loopback address is used.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

_SERVE = (
    "from fastpuzzle.gui import PuzzleServer\n"
    "server = PuzzleServer()\n"
    "print(server.server_address[1], server.token, flush=True)\n"
    "server.serve_forever()\n"
)


@dataclass
class Server:
    """A server process started from one source tree."""

    process: subprocess.Popen[str]
    port: int
    token: str

    def rss_mb(self) -> float:
        """The process's resident memory in MB (Linux /proc)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")


def start(src: str) -> Server:
    """Start a server whose ``fastpuzzle`` comes from the tree ``src``."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    process = subprocess.Popen(
        [sys.executable, "-c", _SERVE], env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    port, token = process.stdout.readline().split()
    return Server(process, int(port), token)


def _get(port: int, path: str, timeout: float) -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status}")
        return body
    finally:
        connection.close()


def burst(port: int, clients: int, wait: float) -> tuple[int, float]:
    """``clients`` page requests at once: how many were answered within ``wait`` s, the slowest."""
    barrier = threading.Barrier(clients)
    times: list[float] = []
    lock = threading.Lock()

    def one() -> None:
        barrier.wait()
        began = time.monotonic()
        try:
            _get(port, "/", timeout=wait)
        except (OSError, RuntimeError, http.client.HTTPException):
            return
        with lock:
            times.append(time.monotonic() - began)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(wait + 5)
    answered = [t for t in times if t <= wait]
    return len(answered), max(answered, default=float("nan"))


def page_load(server: Server, number: int, tiles: list[int], side: int) -> None:
    """One page load: the page, the catalogue, a fast solve and its polling to the end."""
    _get(server.port, "/", timeout=60)
    _get(server.port, "/api/catalogue", timeout=60)
    body = {"page": f"load-{number}", "rows": side, "cols": side, "board": tiles}
    body["algorithm"] = "fast"
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {
        "Host": f"127.0.0.1:{server.port}",
        "Origin": f"http://127.0.0.1:{server.port}",
        "Content-Type": "application/json",
        "X-Fastpuzzle-Token": server.token,
    }
    try:
        connection.request("POST", "/api/solve", body=json.dumps(body), headers=headers)
        view = json.loads(connection.getresponse().read())
    finally:
        connection.close()
    deadline = time.monotonic() + 120
    while view.get("state") == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
        view = json.loads(_get(server.port, f"/api/job?id={view['id']}", timeout=60))


def loads(server: Server, count: int, side: int, workers: int = 4) -> None:
    """``count`` page loads, ``workers`` at a time (the server runs four searches at once)."""
    from fastpuzzle.generate import random_board

    boards = [list(random_board((side, side)).tiles) for _ in range(8)]
    with ThreadPoolExecutor(workers) as pool:
        done = pool.map(lambda n: page_load(server, n, boards[n % 8], side), range(count))
        for _ in done:
            pass


def main() -> None:
    """Measure each tree named on the command line and print one line of figures per step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="source trees (each holds fastpuzzle/)")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--wait", type=float, default=60.0)
    parser.add_argument("--loads", type=int, default=1000)
    parser.add_argument("--side", type=int, default=60)
    args = parser.parse_args()
    for tree in args.trees:
        server = start(tree)
        try:
            answered, slowest = burst(server.port, args.clients, args.wait)
            print(
                f"{tree}: {answered}/{args.clients} answered within {args.wait:g} s, "
                f"slowest {slowest:.2f} s",
                flush=True,
            )
            time.sleep(1)  # let the burst's threads end before measuring memory
            before = server.rss_mb()
            began = time.monotonic()
            loads(server, args.loads, args.side)
            print(
                f"{tree}: RSS {before:.0f} MB -> {server.rss_mb():.0f} MB after {args.loads} "
                f"page loads with a {args.side}x{args.side} fast solve each "
                f"({time.monotonic() - began:.0f} s)",
                flush=True,
            )
        finally:
            server.process.terminate()
            server.process.wait(10)


if __name__ == "__main__":
    main()
