"""The puzzle page: its server's refusals, and the page itself in a real headless browser."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pathlib
import select
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import fastpuzzle as fp
from fastpuzzle.gui import PuzzleServer, jobs
from fastpuzzle.gui.server import MAX_BODY
from fastpuzzle.heuristics import CATALOGUE
from tests.fsm_reference import manhattan
from tests.instances import hard
from tests.interrupts import ctrl_c
from tests.oracle import distances_3x3


@pytest.fixture
def server() -> Iterator[PuzzleServer]:
    running = PuzzleServer()
    running.serve_in_thread()
    try:
        yield running
    finally:
        running.shutdown()
        running.close()


def _request(
    server: PuzzleServer,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Host": f"127.0.0.1:{port}"}
    sent.update(headers or {})
    data = body if isinstance(body, (bytes, str)) or body is None else json.dumps(body)
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, json.loads(raw) if raw.startswith(b"{") else raw


def _post(server: PuzzleServer, path: str, body: Any, **headers: str) -> tuple[int, Any]:
    port = server.server_address[1]
    sent = {
        "Origin": f"http://127.0.0.1:{port}",
        "Content-Type": "application/json",
        "X-Fastpuzzle-Token": server.token,
    }
    sent.update({k.replace("_", "-"): v for k, v in headers.items()})
    return _request(server, "POST", path, body, sent)


def _wait(server: PuzzleServer, job: str, seconds: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, view = _request(server, "GET", f"/api/job?id={job}")
        assert status == 200
        if view["state"] != "running":
            return view  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("the job did not end")


HARD_3X3 = [8, 6, 7, 2, 5, 4, 3, 0, 1]


def test_the_page_and_the_catalogue_come_from_the_library(server: PuzzleServer) -> None:
    status, page = _request(server, "GET", "/")
    assert (
        status == 200
        and server.token.encode() in page
        and b"http" not in page.replace(b"http://", b"")
    )
    status, catalogue = _request(server, "GET", "/api/catalogue")
    assert [a["name"] for a in catalogue["algorithms"]] == list(fp.ALGORITHMS)
    assert [h["name"] for h in catalogue["heuristics"]] == [h.name for h in CATALOGUE]
    astar = next(a for a in catalogue["algorithms"] if a["name"] == "astar")
    assert astar["doc"] == fp.ALGORITHMS["astar"].doc and "manhattan" in astar["heuristics"]


def test_foreign_hosts_and_origins_are_refused(server: PuzzleServer) -> None:
    # DNS rebinding: a page of another name that resolves here.
    status, body = _request(server, "GET", "/", headers={"Host": "evil.example:80"})
    assert status == 403 and "Host" in body["error"]
    board = {"page": "p", "rows": 3, "cols": 3, "kind": "random"}
    status, body = _post(server, "/api/board", board, Origin="http://evil.example")
    assert status == 403 and "other sites" in body["error"]
    status, _ = _post(server, "/api/board", board, X_Fastpuzzle_Token="guess")
    assert status == 403
    port = server.server_address[1]
    no_origin = {"Content-Type": "application/json", "X-Fastpuzzle-Token": server.token}
    assert _request(server, "POST", "/api/board", board, no_origin)[0] == 403
    assert _request(server, "POST", "/api/board", board, {**no_origin, "Host": "x:1"})[0] == 403
    assert _post(server, "/api/board", board)[0] == 200
    assert server.allowed_hosts == {f"127.0.0.1:{port}", f"localhost:{port}"}


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("{not json", 400, "not JSON"),
        ("[1, 2]", 400, "JSON object"),
        ({"page": "p", "rows": 300, "cols": 3, "board": []}, 400, "2 to 100 rows"),
        ({"page": "p", "rows": 3, "cols": 3, "board": [1, 2, 3]}, 400, "list of 9 tiles"),
        ({"page": "p", "rows": 3, "cols": 3, "board": [1, 1, 2, 3, 4, 5, 6, 7, 8]}, 400, "board"),
        ({"page": "p", "rows": True, "cols": 3, "board": []}, 400, "rows"),
        ({"rows": 3, "cols": 3, "board": HARD_3X3}, 400, "page"),
    ],
)
def test_bad_requests_get_a_clear_4xx(
    server: PuzzleServer, body: Any, status: int, words: str
) -> None:
    got, answer = _post(server, "/api/check", body)
    assert got == status and words in answer["error"], answer


def test_oversized_bodies_wrong_types_and_unknown_paths(server: PuzzleServer) -> None:
    huge = json.dumps({"page": "p", "pad": "x" * MAX_BODY})
    assert _post(server, "/api/check", huge)[0] == 413
    assert _post(server, "/api/check", "{}", Content_Type="text/plain")[0] == 415
    assert _post(server, "/api/nothing", {"page": "p"})[0] == 404
    for path in ("/etc/passwd", "/../pyproject.toml", "/page.html", "/api/"):
        assert _request(server, "GET", path)[0] == 404
    # The server is still well.
    assert _request(server, "GET", "/api/catalogue")[0] == 200


@pytest.mark.parametrize("body", ["[" * 200_000, '{"page": "p", "rows": ' + "[" * 200_000])
def test_deeply_nested_json_gets_400(server: PuzzleServer, body: str) -> None:
    # json.loads raised RecursionError, answered as a 500 (a server fault) instead of a 400.
    status, answer = _post(server, "/api/check", body)
    assert status == 400 and "nested" in answer["error"]
    assert _request(server, "GET", "/api/catalogue")[0] == 200


def raw_exchange(port: int, data: bytes) -> bytes:
    """Sends ``data`` as is to the page on ``port`` and reads every answer until the server
    closes (bounded by the read timeout of the server and the socket's own)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        answers = b""
        while chunk := sock.recv(65536):
            answers += chunk
    return answers


def _raw(server: PuzzleServer, data: bytes) -> bytes:
    return raw_exchange(server.server_address[1], data)


_CHECK_2X2 = b'{"page": "p", "rows": 2, "cols": 2, "board": [1, 2, 3, 0]}'


def _raw_post(server: PuzzleServer, extra: list[str], body: bytes = _CHECK_2X2) -> bytes:
    port = server.server_address[1]
    lines = [
        "POST /api/check HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Origin: http://127.0.0.1:{port}",
        "Content-Type: application/json",
        f"X-Fastpuzzle-Token: {server.token}",
        *extra,
    ]
    if not any(
        line.lower().startswith(("content-length:", "transfer-encoding:")) for line in extra
    ):
        lines.append(f"Content-Length: {len(body)}")
    return _raw(server, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


@pytest.mark.parametrize(
    "extra",
    [
        ["Host: evil.example"],
        ["Origin: http://evil.example"],
        ["X-Fastpuzzle-Token: guess"],
        ["Content-Type: text/plain"],
        ["Content-Length: 58", "Content-Length: 58"],
        ["Content-Length: 58", "Content-Length: 100"],
        ["Content-Length: +58"],
        ["Content-Length: \u00b2"],
        ["Transfer-Encoding: chunked", "Content-Length: 58"],
    ],
)
def test_duplicate_headers_and_bad_framing_get_400(server: PuzzleServer, extra: list[str]) -> None:
    # RFC 9112: more than one Host, conflicting or invalid Content-Length, a Transfer-Encoding
    # this server does not read: 400, then the connection closes. The page's own headers
    # (Origin, token, type) are taken once too: which one would be checked is ambiguous.
    answer = _raw_post(server, extra)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert answer.count(b"HTTP/1.1 ") == 1


def test_the_same_request_without_duplicates_is_answered(server: PuzzleServer) -> None:
    answer = _raw_post(server, [])
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]


def test_a_get_without_host_or_with_a_body_gets_400(server: PuzzleServer) -> None:
    assert _raw(server, b"GET / HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 400 ")
    host = f"Host: 127.0.0.1:{server.server_address[1]}".encode()
    # The body, unread, was taken as the next request on the connection.
    inner = b"GET /api/catalogue HTTP/1.1\r\n" + host + b"\r\n\r\n"
    outer = b"GET / HTTP/1.1\r\n" + host + b"\r\nContent-Length: %d\r\n\r\n" % len(inner)
    answer = _raw(server, outer + inner)
    assert answer.startswith(b"HTTP/1.1 400 ") and answer.count(b"HTTP/1.1 ") == 1


@pytest.mark.parametrize(
    ("name", "value"),
    [("X-Fastpuzzle-Token", "guess"), ("Content-Type", "text/plain"), ("Content-Length", "0")],
)
def test_a_refused_post_closes_its_connection(server: PuzzleServer, name: str, value: str) -> None:
    # The body of a POST refused before it was read (403, 415, ...) stayed on the connection
    # and was answered as the next request.
    port = server.server_address[1]
    inner = f"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    headers = {
        "Host": f"127.0.0.1:{port}",
        "Origin": f"http://127.0.0.1:{port}",
        "Content-Type": "application/json",
        "X-Fastpuzzle-Token": server.token,
        "Content-Length": str(len(inner)),
        name: value,
    }
    lines = "".join(f"{key}: {text}\r\n" for key, text in headers.items())
    answer = _raw(server, f"POST /api/check HTTP/1.1\r\n{lines}\r\n{inner}".encode())
    assert answer.startswith(b"HTTP/1.1 4") and answer.count(b"HTTP/1.1 ") == 1, answer[:300]


def test_solve_compare_and_limits_through_the_api(server: PuzzleServer) -> None:
    request = {"page": "p", "rows": 3, "cols": 3, "board": HARD_3X3, "algorithm": "astar"}
    status, view = _post(server, "/api/solve", {**request, "heuristic": "manhattan"})
    assert status == 200
    result = _wait(server, view["id"])["result"]
    assert result["status"] == "solved" and result["length"] == distances_3x3()[tuple(HARD_3X3)]
    assert fp.Board(HARD_3X3).apply(result["moves"]) == fp.Board.goal((3, 3))
    unsolvable = {**request, "board": [1, 2, 3, 4, 5, 6, 8, 7, 0]}
    result = _wait(server, _post(server, "/api/solve", unsolvable)[1]["id"])["result"]
    assert result["status"] == "unsolvable" and "not solvable" in result["message"]
    limited = {**request, "algorithm": "bfs", "nodes": 100}
    result = _wait(server, _post(server, "/api/solve", limited)[1]["id"])["result"]
    assert result["status"] == "limit" and "node_limit" in result["message"]
    methods = [["bfs", ""], ["astar", "manhattan"], ["greedy", "misplaced"]]
    status, view = _post(server, "/api/compare", {**request, "methods": methods})
    result = _wait(server, view["id"])["result"]
    assert [r["algorithm"] for r in result["rows"]] == ["bfs", "astar", "greedy"]
    assert result["rows"][0]["length"] == 31 and result["rows"][1]["shortest"] is True
    assert result.get("plot_svg", "").startswith("<?xml") or "plot_message" in result
    too_big = {**request, "rows": 6, "cols": 6, "board": list(range(36)), "algorithm": "auto"}
    status, body = _post(server, "/api/solve", too_big)
    assert status == 400 and "fast" in body["error"]


#: The page's anytime solves in these tests: a node limit, so that no assertion depends on the
#: machine's speed (the page always sends seconds too: 30 by default).
ANYTIME_NODES = 100_000


def _manhattan(board: fp.Board) -> int:
    """Manhattan distance to the standard goal, counted here from the tiles."""
    return manhattan(board.tiles, board.shape[1])


def test_anytime_solves_past_5x5_with_its_bound_and_gap(server: PuzzleServer) -> None:
    # Issue 55: 'fast' dropped the page's limits (the millisecond answer) and nothing on the
    # page ran the anytime solver; 'anytime' keeps them and reports its bound and gap.
    board = fp.random_board((6, 6), rng=2)
    request = {"page": "anytime", "rows": 6, "cols": 6, "board": list(board.tiles)}
    request.update(algorithm="anytime", nodes=ANYTIME_NODES)
    status, view = _post(server, "/api/solve", request)
    assert status == 200, view
    result = _wait(server, view["id"])["result"]
    assert result["status"] == "solved" and result["algorithm"] == "anytime", result
    first = fp.solve(board, optimal=False)
    assert board.apply(result["moves"]) == fp.Board.goal((6, 6))
    assert result["length"] < len(first)
    assert _manhattan(board) <= result["lower_bound"] <= result["length"]
    assert result["gap"] == pytest.approx(result["length"] / result["lower_bound"])
    alone = fp.solve(board, optimal=False, limits=fp.Limits(nodes=ANYTIME_NODES))
    assert (result["moves"], result["lower_bound"]) == (alone.moves, alone.lower_bound)
    # 'fast' stays the millisecond answer, with its bound.
    status, view = _post(server, "/api/solve", {**request, "algorithm": "fast"})
    result = _wait(server, view["id"])["result"]
    assert result["moves"] == first.moves and result["lower_bound"] == first.lower_bound
    # A report of the anytime solver as the page polls it: its best, bound and gap.
    shown = jobs.progress_view(
        fp.results.AnytimeStats(depth=150, lower_bound=100, expanded=5, seconds=1.0), None
    )
    assert (shown["depth"], shown["lower_bound"], shown["gap"]) == (150, 100, 1.5)


def test_one_search_per_page_and_stop_ends_it(server: PuzzleServer) -> None:
    board = list(hard()[0].tiles)
    request = {
        "page": "p",
        "rows": 4,
        "cols": 4,
        "board": board,
        "algorithm": "idastar",
        "heuristic": "manhattan",
        "seconds": 120,
    }
    status, view = _post(server, "/api/solve", request)
    assert status == 200
    assert _post(server, "/api/solve", request)[0] == 409  # one running search per page
    assert _post(server, "/api/stop", {"page": "other", "job": view["id"]})[0] == 403
    time.sleep(0.5)
    stopped_at = time.monotonic()
    assert _post(server, "/api/stop", {"page": "p", "job": view["id"]})[0] == 200
    ended = _wait(server, view["id"], seconds=10)
    assert ended["state"] == "stopped" and time.monotonic() - stopped_at < 2.0
    assert (
        _post(server, "/api/solve", {**request, "board": list(fp.Board.goal((4, 4)).tiles)})[0]
        == 200
    )


def test_long_4x4_searches_name_the_table_that_would_help(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    board, goal = fp.Board(list(hard()[0].tiles)), fp.Board.goal((4, 4))
    auto = {"optimal": True, "limits": fp.Limits()}
    hint = jobs.solve_hint(board, goal, auto)
    assert hint is not None and "pdb build 7-8`" in hint
    # Not for other searches, other shapes, or a fast solve.
    for options in (
        {**auto, "algorithm": "astar"},
        {**auto, "algorithm": "idastar", "heuristic": "manhattan"},
        {**auto, "optimal": False},
    ):
        assert jobs.solve_hint(board, goal, options) is None
    small = fp.Board(HARD_3X3)
    assert jobs.solve_hint(small, fp.Board.goal((3, 3)), auto) is None
    # Shown only once the search has run for a while.
    early = jobs.progress_view(fp.SearchStats(depth=50, seconds=0.5), hint)
    late = jobs.progress_view(fp.SearchStats(depth=50, seconds=jobs.HINT_AFTER_SECONDS), hint)
    assert "hint" not in early and late["hint"] == hint and late["depth"] == 50
    assert "hint" not in jobs.progress_view(fp.SearchStats(seconds=60.0), None)


def _solve_to_the_end(server: PuzzleServer, page: str) -> dict[str, Any]:
    request = {"page": page, "rows": 3, "cols": 3, "board": HARD_3X3, "algorithm": "fast"}
    status, view = _post(server, "/api/solve", request)
    assert status == 200, view
    return _wait(server, view["id"])


def test_ended_jobs_are_not_kept_for_ever(server: PuzzleServer) -> None:
    # Every page load's search stayed in memory (969 loads with a 60x60 solve: 44 -> 590 MB).
    pages = 3 * jobs.MAX_ENDED
    for number in range(pages):
        assert _solve_to_the_end(server, f"page-{number}")["state"] == "done"
    assert len(server.jobs) <= jobs.MAX_ENDED
    # The latest are among those kept, and can be fetched again (a poll already in flight).
    status, again = _request(server, "GET", f"/api/job?id=job-{pages}")
    assert status == 200 and again["state"] == "done"


def test_ended_jobs_go_once_fetched_or_old(server: PuzzleServer) -> None:
    server.jobs = jobs.Jobs(fetched_grace=0.0)  # dropped at the first call after the fetch
    ended = _solve_to_the_end(server, "fetched")
    assert _request(server, "GET", f"/api/job?id={ended['id']}")[0] == 404
    assert len(server.jobs) == 0
    # Never fetched (the page was closed): dropped once older than max_age.
    server.jobs = jobs.Jobs(max_age=0.0)
    job = server.jobs.solve(
        "closed", {"rows": 3, "cols": 3, "board": HARD_3X3, "algorithm": "fast"}
    )
    assert job.thread is not None
    job.thread.join(30)
    assert _request(server, "GET", f"/api/job?id={job.id}")[0] == 404
    assert len(server.jobs) == 0


def _trace_body(board: list[int], methods: list[list[Any]], **more: Any) -> dict[str, Any]:
    side = int(len(board) ** 0.5)
    return {"page": "p", "rows": side, "cols": side, "board": board, "methods": methods, **more}


def test_traces_through_the_api_match_the_compiled_searches(server: PuzzleServer) -> None:
    board = list(fp.scramble(fp.Board.goal((3, 3)), 16, rng=5).tiles)
    body = _trace_body(board, [["bfs", None], ["A*", "linear-conflict"]])
    status, view = _post(server, "/api/trace", body)
    assert status == 200 and view["kind"] == "trace"
    result = _wait(server, view["id"])["result"]
    assert result["status"] == "done"
    distance = distances_3x3()[tuple(board)]
    for trace, (algorithm, heuristic) in zip(
        json.loads(result["traces_json"]), [("bfs", None), ("astar", "linear_conflict")]
    ):
        assert (trace["algorithm"], trace["heuristic"]) == (algorithm, heuristic)
        compiled = fp.search(board, algorithm=algorithm, heuristic=heuristic)
        assert len(trace["steps"]) == trace["compiled"]["expanded"] == compiled.stats.expanded
        assert trace["status"] == "solved" and len(trace["moves"]) == distance
        assert fp.Board(board).apply(trace["moves"]) == fp.Board.goal((3, 3))
    # 4x4: a small search, and the hardest 3x3 board stops BFS at the page's limit.
    small = list(fp.scramble(fp.Board.goal((4, 4)), 16, rng=2).tiles)
    view = _post(server, "/api/trace", _trace_body(small, [["greedy", "manhattan"]]))[1]
    (trace,) = json.loads(_wait(server, view["id"])["result"]["traces_json"])
    assert trace["status"] == "solved" and trace["compiled"]["expanded"] == len(trace["steps"])
    view = _post(server, "/api/trace", _trace_body(HARD_3X3, [["bfs", None]]))[1]
    (trace,) = json.loads(_wait(server, view["id"])["result"]["traces_json"])
    assert trace["status"] == "node_limit" and trace["compiled"]["status"] == "node_limit"
    assert len(trace["steps"]) == jobs.MAX_TRACE_EXPANSIONS == trace["compiled"]["expanded"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rows": 5, "cols": 5, "board": [*range(1, 25), 0]}, "16 cells"),
        ({"board": [1, 2, 3, 4, 5, 6, 8, 7, 0]}, "not solvable"),
        ({"methods": [["bfs", None]] * 3}, "1 to 2 methods"),
        ({"methods": []}, "1 to 2 methods"),
        ({"methods": [["idastar", "manhattan"]]}, "traces follow"),
        ({"methods": [["astar", "pdb"]]}, "heuristic"),
        ({"methods": ["bfs"]}, "[algorithm, heuristic]"),
        ({"nodes": 0}, "nodes from 1"),
        ({"nodes": jobs.MAX_TRACE_EXPANSIONS + 1}, "nodes from 1"),
        ({"nodes": True}, "nodes from 1"),
    ],
)
def test_bad_trace_requests_get_a_clear_400(
    server: PuzzleServer, change: dict[str, Any], words: str
) -> None:
    body = {**_trace_body(HARD_3X3, [["bfs", None], ["astar", "manhattan"]]), **change}
    status, answer = _post(server, "/api/trace", body)
    assert status == 400 and words in answer["error"], answer
    assert len(server.jobs) == 0


def test_traces_keep_the_servers_refusals(server: PuzzleServer) -> None:
    body = _trace_body(HARD_3X3, [["bfs", None]])
    assert _post(server, "/api/trace", body, X_Fastpuzzle_Token="guess")[0] == 403
    assert _post(server, "/api/trace", body, Origin="http://evil.example")[0] == 403
    assert _post(server, "/api/trace", body, Host="evil.example:80")[0] == 403
    # One job per page: a trace waits for the page's running search.
    request = {
        "page": "p",
        "rows": 4,
        "cols": 4,
        "board": list(hard()[0].tiles),
        "algorithm": "idastar",
        "heuristic": "manhattan",
        "seconds": 60,
    }
    status, running = _post(server, "/api/solve", request)
    assert status == 200
    assert _post(server, "/api/trace", body)[0] == 409
    _post(server, "/api/stop", {"page": "p", "job": running["id"]})
    assert _wait(server, running["id"])["state"] == "stopped"
    assert _post(server, "/api/trace", body)[0] == 200
    assert len(server.jobs) == 1


# -- the server under load and against misbehaving clients ----------------------------------


def _get_page(port: int, timeout: float) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_200_simultaneous_page_clients_are_all_answered(server: PuzzleServer) -> None:
    # A listen backlog of 5 dropped about half of them for a minute (SYN retries); the bound
    # here is generous: each client gets 30 s, and 200 answers take well under a second.
    clients = 200
    port = server.server_address[1]
    barrier = threading.Barrier(clients)
    statuses: list[int] = []

    def client() -> None:
        barrier.wait(timeout=30)
        try:
            statuses.append(_get_page(port, timeout=30))
        except OSError:  # not answered in time: counted as such
            statuses.append(0)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses.count(200) == clients


@contextlib.contextmanager
def _serving(**options: Any) -> Iterator[PuzzleServer]:
    running = PuzzleServer(**options)
    running.serve_in_thread()
    try:
        yield running
    finally:
        running.shutdown()
        running.close()


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    # Whether the server closes the connection within `seconds`, while the client sends
    # `trickle` one byte every 0.2 s (a slow-loris client) or nothing. A 408 answer before the
    # close is read and dropped.
    deadline = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < deadline:
        try:
            if sent < len(trickle):
                sock.sendall(trickle[sent : sent + 1])
                sent += 1
            readable, _, _ = select.select([sock], [], [], 0.2)
            if readable and sock.recv(65536) == b"":
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


@pytest.mark.heavy
@pytest.mark.parametrize(
    "sent",
    [
        b"",  # connects and says nothing
        b"GET / HTTP/1.1\r\n",  # then a header a byte at a time
        b"POST /api/check HTTP/1.1\r\nContent-Length: 1000\r\n\r\n{",  # a short body
    ],
)
def test_a_slow_client_is_closed_after_the_read_timeout(sent: bytes) -> None:
    # Each such client held a thread (and a descriptor) for as long as it liked. With a read
    # timeout of 1 s the server closes it within 2 s; the bound here is 20 s.
    with _serving(read_timeout=1.0) as server:
        port = server.server_address[1]
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(sent)
            trickle = b"X-Slow: " + b"a" * 200 if sent.startswith(b"GET") else b""
            assert _closed_within(sock, 20.0, trickle)
        # The server still answers others.
        assert _get_page(port, timeout=30) == 200


def test_a_connection_closed_twice_frees_its_slot_once() -> None:
    # socketserver closes a connection itself when Ctrl-C interrupts its handing to a thread,
    # which closes it too: a second release of its slot raised ValueError out of serve_forever
    # (Ctrl-C then ended `fastpuzzle gui` with status 2, not 0).
    with _serving(max_connections=1) as server:
        mine, theirs = socket.socketpair()
        with theirs:
            server.shutdown_request(mine)
            server.shutdown_request(mine)
        assert _get_page(server.server_address[1], timeout=30) == 200


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts descriptors in /proc")
def test_half_open_connections_leave_the_server_descriptors() -> None:
    # With no limit on connections, silent clients took every descriptor the process may open
    # (then accept() failed in a busy loop, and no search could open a table). The server runs
    # in its own process with a limit of 128 descriptors; 256 silent clients connect.
    limit, clients = 128, 256
    script = (
        "import resource\n"
        "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, hard))\n"
        "from fastpuzzle.gui import PuzzleServer\n"
        "server = PuzzleServer(read_timeout=10.0)\n"
        "print(server.server_address[1], flush=True)\n"
        "server.serve_forever()\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    silent: list[socket.socket] = []
    try:
        port = int(process.stdout.readline() if process.stdout else "0")
        silent = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(clients)]
        most = 0
        for _ in range(30):  # 3 s: the server accepts what it will
            most = max(most, len(os.listdir(f"/proc/{process.pid}/fd")))
            time.sleep(0.1)
        assert most <= limit // 2
        for sock in silent:
            sock.close()
        assert _get_page(port, timeout=30) == 200
    finally:
        for sock in silent:
            sock.close()
        process.kill()
        process.wait(10)


def _handlers_ended(seconds: float = 30.0) -> None:
    # Waits (bounded) until no connection thread of any server in this process is alive, so
    # that whatever they print is printed.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        names = [thread.name for thread in threading.enumerate()]
        if not any("process_request_thread" in name for name in names):
            return
        time.sleep(0.05)
    raise AssertionError("connection threads still running")


@pytest.mark.parametrize("token", ["é", "ü" * 32, b"\xc3\xa9".decode("latin-1")])
def test_a_non_ascii_token_is_refused_quietly(
    server: PuzzleServer, token: str, capfd: pytest.CaptureFixture[str]
) -> None:
    # compare_digest raised TypeError on a non-ASCII str: no answer, a traceback on stderr.
    board = {"page": "p", "rows": 3, "cols": 3, "kind": "random"}
    status, body = _post(server, "/api/board", board, X_Fastpuzzle_Token=token)
    assert status == 403 and "token" in body["error"]
    _handlers_ended()
    assert capfd.readouterr().err == ""


def test_clients_that_reset_leave_no_traceback(
    server: PuzzleServer, capfd: pytest.CaptureFixture[str]
) -> None:
    # Every client that went away mid-answer printed a BrokenPipeError or ConnectionResetError
    # traceback on the terminal of `fastpuzzle gui`.
    port = server.server_address[1]
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    for _ in range(20):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(request * 4)
        # Closing with unread data and a zero linger time sends a reset.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    assert _get_page(port, timeout=30) == 200
    _handlers_ended()
    assert capfd.readouterr().err == ""


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.parametrize("host", ["::1", "[::1]"])
def test_the_page_is_served_on_ipv6_loopback(host: str) -> None:
    # `fastpuzzle gui --host ::1` could not start: the server made an IPv4 socket.
    if not _has_ipv6_loopback():
        pytest.skip("this machine has no ::1")
    with _serving(host=host) as server:
        port = server.server_address[1]
        assert server.url == f"http://[::1]:{port}/"
        connection = http.client.HTTPConnection("::1", port, timeout=30)
        try:
            connection.request("GET", "/", headers={"Host": f"[::1]:{port}"})
            response = connection.getresponse()
            assert response.status == 200 and server.token.encode() in response.read()
        finally:
            connection.close()


# -- the page in a real browser ------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        pytest.skip("needs Debian's chromium and chromium-driver (.ci/run installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _open(browser: Any, server: PuzzleServer) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(server.url)
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true"
    )


def _tiles(browser: Any) -> list[int]:
    # One call for every cell: a 100x100 board is 10,000 of them.
    script = "return [...document.querySelectorAll('#board .cell')].map(c => c.dataset.tile)"
    return [int(tile) for tile in browser.execute_script(script)]


def _status_when(browser: Any, words: tuple[str, ...], seconds: float = 30.0) -> str:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, seconds).until(
        lambda d: any(w in d.find_element("id", "status").text for w in words)
    )
    return str(browser.find_element("id", "status").text)


def _type_board(browser: Any, text: str, said: tuple[str, ...] = ("Board set",)) -> None:
    # The box holds the board shown: typing replaces it.
    field = browser.find_element("id", "board-text")
    field.clear()
    field.send_keys(text)
    browser.find_element("id", "set-board").click()
    _status_when(browser, said)


def _choose(browser: Any, select_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", select_id)).select_by_value(value)


def test_shuffle_solve_with_two_methods_and_step_to_the_goal(
    browser: Any, server: PuzzleServer
) -> None:
    _open(browser, server)
    goal = list(fp.Board.goal((3, 3)).tiles)
    assert _tiles(browser) == goal
    browser.find_element("id", "shuffle-moves").clear()
    browser.find_element("id", "shuffle-moves").send_keys("30")
    browser.find_element("id", "shuffle").click()
    _status_when(browser, ("Shuffled",))
    shuffled = _tiles(browser)
    assert shuffled != goal and fp.Board(shuffled).is_solvable()
    lengths = []
    for algorithm, heuristic in (("astar", "linear_conflict"), ("bfs", None)):
        _choose(browser, "algorithm", algorithm)
        if heuristic:
            _choose(browser, "heuristic", heuristic)
        browser.find_element("id", "solve").click()
        text = _status_when(browser, ("Solved", "Stopped", "Not solvable"))
        lengths.append(int(text.split()[1]))
        assert _tiles(browser) == shuffled  # a solution starts from the board solved
        browser.find_element("id", "last").click()
        assert _tiles(browser) == goal
        assert browser.find_element("id", "board").get_attribute("data-at-goal") == "true"
        browser.find_element("id", "first").click()
        assert _tiles(browser) == shuffled
    # One step on and back, then play at the fastest speed to the goal.
    grid = browser.find_element("id", "board")
    browser.find_element("id", "next").click()
    assert grid.get_attribute("data-step") == "1" and _tiles(browser) != shuffled
    browser.find_element("id", "prev").click()
    assert grid.get_attribute("data-step") == "0" and _tiles(browser) == shuffled
    _choose(browser, "speed", "500")
    browser.find_element("id", "play").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(
        lambda d: d.find_element("id", "board").get_attribute("data-at-goal") == "true"
    )
    assert _tiles(browser) == goal and browser.find_element("id", "play").text == "play"
    browser.find_element("id", "first").click()
    assert lengths[0] == lengths[1] == distances_3x3()[tuple(shuffled)]
    stats = browser.find_element("id", "stats").text
    assert "nodes expanded" in stats and "peak memory" in stats
    # The arrow keys move the blank: from the shuffled board, Right or Left moves it.
    board = fp.Board(shuffled)
    move = "R" if "R" in board.moves() else "L"
    from selenium.webdriver.common.keys import Keys

    browser.find_element("id", "board").send_keys(
        Keys.ARROW_RIGHT if move == "R" else Keys.ARROW_LEFT
    )
    assert _tiles(browser) == list(board.apply(move).tiles)


def test_a_4x4_board_typed_by_hand_and_a_comparison(browser: Any, server: PuzzleServer) -> None:
    _open(browser, server)
    typed = fp.Board.goal((4, 4)).apply("LLUR")
    _type_board(browser, typed.to_string())
    assert _tiles(browser) == list(typed.tiles)
    _choose(browser, "algorithm", "auto")
    browser.find_element("id", "solve").click()
    assert _status_when(browser, ("Solved",)).startswith("Solved: 4 moves")
    browser.find_element("id", "last").click()
    assert _tiles(browser) == list(fp.Board.goal((4, 4)).tiles)
    # Methods compare on the board shown: back to the typed one.
    browser.find_element("id", "first").click()
    browser.find_element("id", "compare").click()
    _status_when(browser, ("Compared",))
    rows = browser.find_elements("css selector", "#compare-rows tr")
    assert len(rows) == 3  # a header, bfs and astar+manhattan
    cells = [row.find_elements("tag name", "td") for row in rows[1:]]
    assert [(c[0].text, c[2].text) for c in cells] == [("bfs", "4"), ("astar+manhattan", "4")]
    # Not solvable: said before any search.
    _type_board(browser, "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 _", ("not solvable",))


def test_stop_ends_a_long_search(
    browser: Any, server: PuzzleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hint of a long 4x4 search, forced here on a Manhattan search from the first report.
    monkeypatch.setattr(jobs, "HINT_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(jobs, "solve_hint", lambda board, goal, options: "build a table")
    _open(browser, server)
    _type_board(browser, fp.Board(list(hard()[0].tiles), shape=(4, 4)).to_string())
    _choose(browser, "algorithm", "idastar")
    _choose(browser, "heuristic", "manhattan")
    browser.find_element("id", "solve").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: "expanded" in d.find_element("id", "progress").text)
    WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "hint").text)
    assert browser.find_element("id", "hint").text == "hint: build a table"
    browser.find_element("id", "stop").click()
    assert _status_when(browser, ("Stopped",), seconds=5) == "Stopped."
    assert browser.find_element("id", "solve").is_enabled()
    # The hint was about that search: it goes once the board changes.
    assert browser.find_element("id", "hint").text == "hint: build a table"
    browser.find_element("id", "shuffle").click()
    _status_when(browser, ("Shuffled",))
    assert browser.find_element("id", "hint").text == ""


# Every control shown (buttons, fields, lists), scrolled into view in turn: the element at its
# centre must be the control itself. Returns those covered by something else.
_COVERED_CONTROLS = """
const covered=[];
for(const el of document.querySelectorAll("button, input, select")){
  if(el.offsetParent===null)continue;
  el.scrollIntoView({block:"center",inline:"center"});
  const r=el.getBoundingClientRect();
  const hit=document.elementFromPoint(r.left+r.width/2,r.top+r.height/2);
  if(!(hit===el||el.contains(hit)))
    covered.push((el.id||el.textContent)+" under "+(hit?(hit.id||hit.className):"nothing"));
}
window.scrollTo(0,0);
return covered;
"""

# The cells of the board's four corners and its whole last column, scrolled into view (in the
# board's box, if it scrolls): each must be the element at its own centre.
_HIDDEN_CELLS = """
const cells=document.querySelectorAll("#board .cell"), cols=arguments[0], hidden=[];
const wanted=new Set([0,cols-1,cells.length-cols,cells.length-1]);
for(let i=cols-1;i<cells.length;i+=cols)wanted.add(i);
for(const i of wanted){
  const c=cells[i];c.scrollIntoView({block:"center",inline:"center"});
  const r=c.getBoundingClientRect();
  const hit=document.elementFromPoint(r.left+r.width/2,r.top+r.height/2);
  if(hit!==c)hidden.push(i);
}
window.scrollTo(0,0);
return hidden;
"""

# Cells that show a number: how many, and those whose text is not their whole tile number.
_TILE_TEXT = """
let shown=0;const cut=[];
for(const c of document.querySelectorAll("#board .cell")){
  if(!c.textContent)continue;
  shown++;
  if(c.textContent!==c.dataset.tile||c.scrollWidth>c.clientWidth||c.scrollHeight>c.clientHeight)
    cut.push(c.dataset.tile);
}
return [shown, cut.slice(0,5)];
"""

_PAGE_FITS = """
const box=document.getElementById("board-box").getBoundingClientRect();
const panel=document.getElementById("board-section").getBoundingClientRect();
return [document.documentElement.scrollWidth<=window.innerWidth, box.right<=panel.right+0.5];
"""


def _set_shape(browser: Any, rows: int, cols: int) -> None:
    for name, value in (("rows", rows), ("cols", cols)):
        field = browser.find_element("id", name)
        field.clear()
        field.send_keys(str(value))


def _board_text(browser: Any) -> str:
    return str(browser.find_element("id", "board-text").get_attribute("value"))


@pytest.mark.parametrize("side", [20, 100])
def test_big_boards_fit_their_panel_and_cover_no_control(
    browser: Any, server: PuzzleServer, side: int
) -> None:
    # 20x20 ran under the control panels (its last columns lost), and 100x100 covered the page
    # with 4-digit numbers cut to 2 digits.
    _open(browser, server)
    _set_shape(browser, side, side)
    browser.find_element("id", "random").click()
    _status_when(browser, ("uniformly random",))
    tiles = _tiles(browser)
    board = fp.Board(tiles, shape=(side, side))
    assert _board_text(browser) == board.to_string()
    assert browser.execute_script(_COVERED_CONTROLS) == []
    assert browser.execute_script(_HIDDEN_CELLS, side) == []
    assert browser.execute_script(_PAGE_FITS) == [True, True]
    shown, cut = browser.execute_script(_TILE_TEXT)
    grid = browser.find_element("id", "board")
    if side == 20:  # every number fits at the size that fits the panel
        assert (shown, cut) == (side * side - 1, [])
        return
    # 100x100 fits its panel with tiles too small for numbers: none is shown cut; the button
    # shows them all, whole, in a box that scrolls inside the panel.
    assert (shown, cut, grid.get_attribute("data-numbers")) == (0, [], "false")
    browser.find_element("id", "zoom").click()
    shown, cut = browser.execute_script(_TILE_TEXT)
    assert (shown, cut, grid.get_attribute("data-numbers")) == (side * side - 1, [], "true")
    box = browser.find_element("id", "board-box")
    assert int(box.get_attribute("scrollWidth")) > int(box.get_attribute("clientWidth"))
    assert browser.execute_script(_PAGE_FITS) == [True, True]
    assert browser.execute_script(_COVERED_CONTROLS) == []
    assert browser.execute_script(_HIDDEN_CELLS, side) == []
    browser.find_element("id", "zoom").click()
    assert grid.get_attribute("data-numbers") == "false"


def test_the_text_box_and_the_comparison_follow_the_board(
    browser: Any, server: PuzzleServer
) -> None:
    # The box was empty after a shuffle (the board could not be copied into Python), and the
    # comparison stayed on screen for a board no longer shown.
    from selenium.webdriver.common.keys import Keys

    _open(browser, server)
    goal = fp.Board.goal((3, 3))
    assert browser.find_element("id", "goal-text").get_attribute("value") == goal.to_string()
    browser.find_element("id", "shuffle").click()
    _status_when(browser, ("Shuffled",))
    shuffled = fp.Board(_tiles(browser))
    assert shuffled != goal and _board_text(browser) == shuffled.to_string()
    # Solved and stepped: the box shows each board on the way.
    _choose(browser, "algorithm", "astar")
    browser.find_element("id", "solve").click()
    _status_when(browser, ("Solved",))
    # The page solved with A* (Manhattan): the same search here takes the same path (another
    # optimal solver may take another of the shortest ones).
    moves = fp.search(shuffled, algorithm="astar").unwrap().moves
    for step in (1, 2):
        browser.find_element("id", "next").click()
        assert _board_text(browser) == shuffled.apply(moves[:step]).to_string()
    browser.find_element("id", "last").click()
    assert _board_text(browser) == goal.to_string()
    browser.find_element("id", "first").click()
    assert _board_text(browser) == shuffled.to_string()
    # A comparison says which board it was for, and says so once the board changes.
    browser.find_element("id", "compare").click()
    _status_when(browser, ("Compared",))
    out = browser.find_element("id", "compare-out")
    label = browser.find_element("id", "compare-for")
    note = label.find_element("class name", "stale-note")
    assert shuffled.to_string() in label.text and out.get_attribute("data-stale") == "false"
    assert not note.is_displayed()
    # Stepping through the solution shows that puzzle's boards: the comparison still holds.
    browser.find_element("id", "next").click()
    assert out.get_attribute("data-stale") == "false"
    browser.find_element("id", "first").click()
    move = "R" if "R" in shuffled.moves() else "L"
    browser.find_element("id", "board").send_keys(
        Keys.ARROW_RIGHT if move == "R" else Keys.ARROW_LEFT
    )
    moved = shuffled.apply(move)
    assert _tiles(browser) == list(moved.tiles) and _board_text(browser) == moved.to_string()
    assert out.get_attribute("data-stale") == "true" and note.is_displayed()
    assert shuffled.to_string() in label.text  # still labelled with the board it was for
    browser.find_element("id", "compare").click()
    _status_when(browser, ("Compared 2",))
    assert moved.to_string() in label.text and out.get_attribute("data-stale") == "false"
    browser.find_element("id", "random").click()
    _status_when(browser, ("uniformly random",))
    assert out.get_attribute("data-stale") == "true"
    assert _board_text(browser) == fp.Board(_tiles(browser)).to_string()
    # Nothing was fetched from anywhere but this server.
    sources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(function(e){return e.name;})"
    )
    assert sources and all(source.startswith(server.url) for source in sources), sources


# Controls left as the browser draws them: a button, field or list without the page's rounded
# border, or a list with the browser's own arrow, or a checkbox, slider or number field
# without the page's look.
_UNSTYLED = """
const out=[];
for(const el of document.querySelectorAll("button, input, select")){
  const s=getComputedStyle(el), name=el.id||el.type;
  if(el.type==="checkbox"||el.type==="range"){
    if(s.accentColor==="auto")out.push(name);
  }else if(s.borderTopLeftRadius!=="7px")out.push(name);
  if(el.tagName==="SELECT"&&s.appearance!=="none")out.push(name);
  if(el.type==="number"&&s.appearance!=="textfield")out.push(name);
}
return out;
"""


def test_every_control_has_the_pages_look(browser: Any, server: PuzzleServer) -> None:
    # The controls were the browser's own widgets, unstyled.
    _open(browser, server)
    browser.find_element("id", "trace-bfs-astar").click()
    _status_when(browser, ("Traced",))
    assert browser.execute_script(_UNSTYLED) == []


def _trace_panels(browser: Any) -> list[Any]:
    return list(browser.find_elements("css selector", "#trace-panels .trace-panel"))


# Steps the visualisation from its start to its end with the > button, and records for each
# panel and step the board its frontier offers first and the board the next step expanded.
_STEP_THROUGH = """
const panels=document.querySelectorAll("#trace-panels .trace-panel");
document.getElementById("trace-first").click();
const seen=[[],[]];
while(document.getElementById("trace-panels").dataset.done!=="true"){
  const before=[...panels].map(function(p){return [p.dataset.next,p.dataset.done];});
  document.getElementById("trace-next").click();
  panels.forEach(function(p,i){
    if(before[i][1]!=="true")seen[i].push([before[i][0],p.dataset.expanded]);});
}
return seen;
"""


def test_watch_bfs_against_astar_to_the_path(browser: Any, server: PuzzleServer) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _open(browser, server)
    board = fp.scramble(fp.Board.goal((3, 3)), 14, rng=3)
    distance = distances_3x3()[board.tiles]
    _type_board(browser, board.to_string())
    browser.find_element("id", "trace-bfs-astar").click()
    _status_when(browser, ("Traced",))
    panels = _trace_panels(browser)
    assert [p.find_element("tag name", "h3").text for p in panels] == ["bfs", "astar + manhattan"]
    expected = [
        fp.search(board, algorithm="bfs").stats.expanded,
        fp.search(board, algorithm="astar", heuristic="manhattan").stats.expanded,
    ]
    for panel, expanded in zip(panels, expected):
        assert panel.find_element("class name", "tp-count").text == f"0 of {expanded:,} expansions"
        assert panel.get_attribute("data-next") == "0"  # the frontier holds the start
    # Step by step: at every step the board the frontier offers first is the next expanded.
    seen = browser.execute_script(_STEP_THROUGH)
    assert [len(steps) for steps in seen] == expected
    for steps in seen:
        assert all(offered == taken for offered, taken in steps)
    for panel in panels:
        assert panel.get_attribute("data-done") == "true"
        assert panel.get_attribute("data-mismatch") == "false"
        moves = panel.find_element("class name", "tp-moves").text
        assert len(moves) == distance and board.apply(moves) == fp.Board.goal((3, 3))
        path = panel.find_elements("css selector", ".tp-path .entry")
        assert len(path) == distance + 1
    # Played at the fastest speed from the start, it ends there too, then stops.
    browser.find_element("id", "trace-first").click()
    _choose(browser, "trace-speed", "1000")
    browser.find_element("id", "trace-play").click()
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element("id", "trace-panels").get_attribute("data-done") == "true"
    )
    WebDriverWait(browser, 5).until(lambda d: d.find_element("id", "trace-play").text == "play")
    assert browser.find_element("id", "trace-panels").get_attribute("data-step") == str(
        max(expected)
    )
    # The slider jumps, and the traces stay labelled with their board once it changes.
    browser.execute_script(
        "const s=document.getElementById('trace-slider');s.value='5';"
        "s.dispatchEvent(new Event('input'));"
    )
    assert [p.get_attribute("data-done") for p in _trace_panels(browser)] == ["false", "false"]
    assert browser.find_element("id", "trace-out").get_attribute("data-stale") == "false"
    browser.find_element("id", "shuffle").click()
    _status_when(browser, ("Shuffled",))
    assert browser.find_element("id", "trace-out").get_attribute("data-stale") == "true"
    assert board.to_string() in browser.find_element("id", "trace-for").text


def test_watch_greedy_against_astar(browser: Any, server: PuzzleServer) -> None:
    _open(browser, server)
    board = fp.Board("8 6 7/2 5 4/3 _ 1")
    _type_board(browser, board.to_string())
    browser.find_element("id", "trace-greedy-astar").click()
    _status_when(browser, ("Traced",))
    browser.find_element("id", "trace-last").click()
    greedy, astar = (
        panel.find_element("class name", "tp-moves").text for panel in _trace_panels(browser)
    )
    assert len(astar) == distances_3x3()[board.tiles] < len(greedy)
    assert board.apply(greedy) == board.apply(astar) == fp.Board.goal((3, 3))
    # Boards past 16 cells are not traced.
    _set_shape(browser, 5, 5)
    browser.find_element("id", "new-goal").click()
    assert not browser.find_element("id", "trace").is_enabled()
    assert "16 cells" in browser.find_element("id", "trace-note").text


# Figures as the page writes them, by the rules of fastpuzzle._util.units (the library's formatter):
# the unit that fits, three significant digits, never "1000 µs".
PAGE_FIGURES = {
    "seconds": [
        (0.0, "0 s"),
        (4.2e-7, "420 ns"),
        (1.234e-5, "12.3 µs"),
        (0.000045, "45.0 µs"),
        (0.000999, "999 µs"),
        (0.00099996, "1.00 ms"),
        (0.0123, "12.3 ms"),
        (0.5, "500 ms"),
        (0.99951, "1.00 s"),
        (2.5, "2.50 s"),
        (123.4, "123 s"),
        (4321.0, "4,321 s"),
        (-1.0, "-"),
        (float("inf"), "-"),
    ],
    "bytes": [
        (512, "512 B"),
        (2048, "2.00 KiB"),
        (197_825, "193 KiB"),
        (1_048_100, "1.00 MiB"),
        (5 << 30, "5.00 GiB"),
    ],
}


def _page_figures(browser: Any, kind: str, values: list[float]) -> list[str]:
    # JSON has no infinity: it travels as null and is made one again in the page.
    script = (
        "return arguments[1].map(v => fastpuzzleFormat[arguments[0]](v === null ? Infinity : v))"
    )
    sent = [None if v == float("inf") else v for v in values]
    return list(browser.execute_script(script, kind, sent))


def test_times_and_sizes_on_the_page_are_in_the_unit_that_fits(
    browser: Any, server: PuzzleServer
) -> None:
    # The page printed "0.0000 s" for most searches, and memory in bytes.
    _open(browser, server)
    for kind, cases in PAGE_FIGURES.items():
        assert _page_figures(browser, kind, [v for v, _ in cases]) == [t for _, t in cases]


def test_the_page_formats_as_the_librarys_formatter(browser: Any, server: PuzzleServer) -> None:
    # Runs once fastpuzzle._util.units (the course-report work) is in the same tree.
    units = pytest.importorskip("fastpuzzle._util.units")
    _open(browser, server)
    # Exact ties (234.5 ns) round to even, as Python's format does.
    times = [k * 10.0**e for e in range(-10, 5) for k in (1, 1.5, 2.345, 4.9996, 9.9949, 99.96)]
    times += [1234.5, 1235.5, 2.125e-3, 0.0625, 7.25e-6]
    assert _page_figures(browser, "seconds", times) == [units.duration(t) for t in times]
    sizes = [k * 2**e for e in range(0, 44, 3) for k in (1, 1.7, 3.14159, 999.6)]
    sizes += [512, 1023, 1024, 2.125 * 1024, 1023.5 * 1024]
    assert _page_figures(browser, "bytes", sizes) == [units.size(n) for n in sizes]
    spreads = [(0.002, 0.00005), (0.002, 0.0003), (1.0, 0.0995), (0.0, 1.0), (4.0, 0.25)]
    script = "return arguments[0].map(p => fastpuzzleFormat.spread(p[0], p[1]))"
    assert browser.execute_script(script, spreads) == [units.spread(a, d) for a, d in spreads]


def test_ctrl_c_stops_the_server_cleanly() -> None:
    import signal

    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    with ctrl_c():  # the server raises KeyboardInterrupt at SIGINT in a background run too
        process = subprocess.Popen(
            [sys.executable, "-m", "fastpuzzle", "gui", "--no-browser"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert "the puzzle page is at http://localhost:" in line
        port = int(line.split("localhost:")[1].split("/")[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/catalogue", headers={"Host": f"127.0.0.1:{port}"})
        assert connection.getresponse().status == 200
        connection.close()
        os.kill(process.pid, signal.SIGINT)
        assert process.wait(timeout=10) == 0
        assert "stopping the server" in (process.stderr.read() if process.stderr else "")
    finally:
        if process.poll() is None:
            process.kill()


# -- the player for long solutions, numbers, messages, heuristics and a phone's width ---------


def _solve_on_page(browser: Any, algorithm: str) -> str:
    _choose(browser, "algorithm", algorithm)
    browser.find_element("id", "solve").click()
    return _status_when(browser, ("Solved", "Stopped", "Not solvable"), seconds=60)


def _step(browser: Any) -> int:
    return int(browser.find_element("id", "board").get_attribute("data-step"))


def test_anytime_on_the_page_shows_the_lower_bound_and_gap(
    browser: Any, server: PuzzleServer
) -> None:
    _open(browser, server)
    _set_shape(browser, 6, 6)
    board = fp.random_board((6, 6), rng=2)
    _type_board(browser, board.to_string())
    browser.find_element("id", "nodes").clear()
    browser.find_element("id", "nodes").send_keys(str(ANYTIME_NODES))
    status = _solve_on_page(browser, "anytime")
    alone = fp.solve(board, optimal=False, limits=fp.Limits(nodes=ANYTIME_NODES))
    assert status == f"Solved: {len(alone):,} moves."
    stats = browser.find_element("id", "stats").text
    assert f"lower bound {alone.lower_bound:,} (gap {float(f'{alone.gap:.3g}'):g}x)" in stats


def test_a_long_solution_has_a_slider_a_step_box_and_its_move_marked(
    browser: Any, server: PuzzleServer
) -> None:
    # Before: only step buttons (a 68,000-move solution was 68,000 clicks from its middle), no
    # mark on the move played next, and "Solved: 68175 moves".
    _open(browser, server)
    _set_shape(browser, 30, 30)
    browser.find_element("id", "random").click()
    _status_when(browser, ("uniformly random",))
    start = _tiles(browser)
    status = _solve_on_page(browser, "fast")
    length = int(status.split()[1].replace(",", ""))
    assert length > 10_000 and status == f"Solved: {length:,} moves."
    stats = browser.find_element("id", "stats").text
    assert f"length {length:,} (not guaranteed optimal)" in stats
    moves = fp.solve(fp.Board(start, shape=(30, 30)), optimal=False).moves
    assert len(moves) == length
    assert browser.find_element("id", "step").text == f"step 0/{length:,}"
    # Jump by the box, then by the slider; the board is the one of that step.
    box = browser.find_element("id", "step-to")
    box.clear()
    box.send_keys("5000\n")
    assert _step(browser) == 5000
    assert _tiles(browser) == list(fp.Board(start, shape=(30, 30)).apply(moves[:5000]).tiles)
    assert browser.find_element("id", "current-move").text == moves[5000]
    shown = browser.find_element("id", "moves").text
    assert "(4,700 moves before)" in shown and f"({length - 5300:,} more)" in shown
    slider = browser.find_element("id", "step-slider")
    browser.execute_script(
        "arguments[0].value=arguments[1];arguments[0].dispatchEvent(new Event('input'))",
        slider,
        length - 1,
    )
    assert _step(browser) == length - 1
    assert browser.find_element("id", "step").text == f"step {length - 1:,}/{length:,}"
    assert browser.find_element("id", "current-move").text == moves[-1]
    browser.find_element("id", "last").click()
    assert browser.find_element("id", "board").get_attribute("data-at-goal") == "true"
    assert browser.find_elements("id", "current-move") == []
    assert slider.get_attribute("value") == str(length)


def test_a_short_solution_marks_each_move_as_it_plays(browser: Any, server: PuzzleServer) -> None:
    _open(browser, server)
    _type_board(browser, "8 6 7/2 5 4/3 _ 1")
    _solve_on_page(browser, "auto")
    moves = fp.solve("8 6 7/2 5 4/3 _ 1").moves
    for step in range(3):
        assert browser.find_element("id", "current-move").text == moves[step]
        before = browser.execute_script(
            "const m=document.getElementById('current-move');"
            "return m.previousSibling?m.previousSibling.textContent:''"
        )
        assert before == moves[:step]
        browser.find_element("id", "next").click()
    assert browser.find_element("id", "moves").text == moves


def test_the_unsolvable_message_says_it_once(browser: Any, server: PuzzleServer) -> None:
    # Before: "Not solvable: this puzzle is not solvable: '...' cannot reach ...".
    _open(browser, server)
    _type_board(browser, "1 2 3/4 5 6/8 7 _", said=("not solvable",))
    status = _solve_on_page(browser, "auto")
    assert status.startswith("Not solvable: '1 2 3/4 5 6/8 7 _' cannot reach")
    assert status.lower().count("solvable") == 1


def _heuristics_offered(browser: Any) -> list[str]:
    script = "return [...document.getElementById('heuristic').options].map(o => o.value)"
    return list(browser.execute_script(script))


def test_the_heuristic_list_offers_what_applies_to_the_shape(
    browser: Any, server: PuzzleServer
) -> None:
    # Before: the 4x4 and 5x5 pattern databases were offered on 3x3, and the exact table on
    # 4x4 (choosing one gave an error after the click).
    _open(browser, server)
    _choose(browser, "algorithm", "idastar")
    for shape in ((3, 3), (4, 4), (2, 5), (5, 5), (6, 6)):
        _set_shape(browser, *shape)
        browser.find_element("id", "new-goal").click()
        offered = _heuristics_offered(browser)
        idastar = fp.ALGORITHMS["idastar"]
        cells = shape[0] * shape[1]
        from fastpuzzle._solver.heuristic_tables import not_ready
        from fastpuzzle.heuristics import BY_NAME, supported_heuristics

        # What fits the shape and can run there (issue 47: not tables that are not built).
        expected = [
            n
            for n in supported_heuristics(idastar, cells)
            if BY_NAME[n].fits(shape) and not_ready(BY_NAME[n], shape, cells - 1) is None
        ]
        assert offered == expected, shape
        for name in offered:  # each one the library takes for this shape
            fp.heuristics.resolve_heuristic(name, idastar, shape=shape)
    assert "pdb663" not in expected and "table" not in expected  # on 6x6


_SIDEWAYS = """
const w=document.documentElement.clientWidth;
return [document.documentElement.scrollWidth<=w,
  [...document.querySelectorAll('body *')].filter(e=>e.offsetParent!==null&&
    e.getBoundingClientRect().right>w+0.5).map(e=>e.id||e.className).slice(0,5)];
"""


def test_no_sideways_scroll_at_a_phones_width(browser: Any, server: PuzzleServer) -> None:
    # Before: 448 px of page in a 360 px viewport (the trace legend did not wrap).
    browser.set_window_size(375, 800)
    try:
        _open(browser, server)
        assert browser.execute_script(_SIDEWAYS) == [True, []]
        _type_board(browser, "8 6 7/2 5 4/3 _ 1")
        _solve_on_page(browser, "auto")
        browser.find_element("id", "trace-bfs-astar").click()
        _status_when(browser, ("Traced",), seconds=60)
        browser.find_element("id", "trace-last").click()
        assert browser.execute_script(_SIDEWAYS) == [True, []]
    finally:
        browser.set_window_size(1400, 1100)


def test_the_page_offers_only_heuristics_that_can_run(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before (issue 47, item 6): the list offered 5x5 tables that were not built and
    # walking_distance on 5x5, each failing at once. The catalogue now says, per shape, which
    # would fail and why; the page leaves those out. Checked against what a search does.
    from fastpuzzle.gui import jobs

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))  # nothing built
    unready = {h["name"]: h["unready"] for h in jobs.catalogue()["heuristics"]}
    assert "fastpuzzle pdb build 6-6-6-6x7" in unready["pdb24"]["5x5"]
    assert "5x5" in unready["walking_distance"] and "4x4" not in unready["walking_distance"]
    assert "4x4" in unready["pdb78"] and unready["pdb663"] == {}
    goal = fp.Board.goal((5, 5))
    for name in ("pdb6666", "pdb24", "walking_distance"):
        with pytest.raises(fp.FastPuzzleError):
            fp.search(goal.apply("UL"), algorithm="idastar", heuristic=name, workers=1)
    assert fp.search(goal.apply("UL"), algorithm="idastar", heuristic="linear_conflict").solved
    # Built, a table is offered.
    fp.pdb.pdb_path("7-8").write_bytes(b"")  # only the file's presence is read
    built = {h["name"]: h["unready"] for h in jobs.catalogue()["heuristics"]}
    assert "4x4" not in built["pdb78"]
    page = (pathlib.Path(jobs.__file__).parent / "page.html").read_text()
    assert "h.unready" in page


def test_a_table_built_on_first_use_is_a_note_of_the_job(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before (issue 47, item 6): a first-use build (3x6: 8 s) showed a count that stood still
    # and no word, the command line's sentence going to the server's terminal. The job's
    # progress carries the build's news now, which the page shows in place of the count;
    # records of other threads are not its.
    import threading

    from fastpuzzle.gui import jobs
    from fastpuzzle.pdb.partitions import resolve
    from fastpuzzle.pdb.store import load_or_build

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    job = jobs.Job("job-1", "page", "solve")
    seen: list[str] = []

    def work() -> None:
        with jobs._notes_of(job):
            load_or_build(resolve([(0, 1, 2, 3)], (3, 3), 8), build=True)
            seen.append(job.progress["note"])
            other = threading.Thread(
                target=load_or_build, args=(resolve([(4, 5)], (3, 3), 8),), kwargs={"build": True}
            )
            other.start()
            other.join()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen and " ready in " in seen[0] and seen[0].startswith("pattern database custom-")
    assert job.progress["note"] == seen[0]  # the other thread's build is not this job's
    page = (pathlib.Path(jobs.__file__).parent / "page.html").read_text()
    assert "p.note" in page


_BLANK_IN_VIEW = """
const box = document.getElementById('board-box');
const cell = [...document.querySelectorAll('#board .cell')].find(c => c.dataset.tile === '0');
const b = box.getBoundingClientRect(), c = cell.getBoundingClientRect();
return [box.scrollWidth > box.clientWidth,
        c.left >= b.left && c.right <= b.right && c.top >= b.top && c.bottom <= b.bottom];
"""


def test_the_board_box_follows_the_blank_as_a_solution_plays(
    browser: Any, server: PuzzleServer
) -> None:
    # Before (issue 47, item 6): a board larger than its box (tiles big enough for their
    # numbers) stayed scrolled where it was while the solution played, the moves out of sight.
    _open(browser, server)
    _set_shape(browser, 60, 60)
    browser.find_element("id", "random").click()
    _status_when(browser, ("uniformly random",))
    browser.find_element("id", "zoom").click()  # numbers shown: the box scrolls
    browser.execute_script(
        "const b=document.getElementById('board-box');b.scrollLeft=0;b.scrollTop=0;"
    )
    _solve_on_page(browser, "fast")
    browser.find_element("id", "last").click()  # the goal: its blank in the far corner
    assert browser.execute_script(_BLANK_IN_VIEW) == [True, True]


_COMPARE_METHODS = """
return [...document.querySelectorAll('#compare-methods input')]
  .map(i => i.dataset.algorithm + (i.dataset.heuristic ? '+' + i.dataset.heuristic : ''));
"""


def test_the_4x4_compare_offers_the_default_solver(browser: Any, server: PuzzleServer) -> None:
    # Before (issue 47, item 6): the compare offered IDA* with the classic heuristics only, so
    # the default solver's method, idastar+pdb, could not be compared on 4x4.
    _open(browser, server)
    _set_shape(browser, 4, 4)
    browser.find_element("id", "new-goal").click()
    methods = browser.execute_script(_COMPARE_METHODS)
    assert "idastar+pdb" in methods and "astar+manhattan" in methods
    assert "astar+pdb" not in methods


def _algorithms_offered(browser: Any) -> list[str]:
    script = "return [...document.getElementById('algorithm').options].map(o => o.value)"
    return list(browser.execute_script(script))


def test_what_a_newcomer_met_after_a_first_search(
    browser: Any, server: PuzzleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 58, item 2, each from a page that has already searched: a 3x6 board pasted as rows
    # was refused ("Expected 9 tiles"), the board box stood still while a solution played, 5x5
    # offered ten algorithms whose heuristic lists were empty, and a build's note was hidden
    # once a search had reported its counts.
    import logging
    import threading

    _open(browser, server)
    _type_board(browser, "8 6 7/2 5 4/3 _ 1")
    assert _solve_on_page(browser, "auto").startswith("Solved")
    # Pasted rows give the shape, as Board() reads them; so do rows and columns typed first.
    pasted = "12 2 11 15 10 7/16 14 3 4 5 8/_ 9 1 17 13 6"
    _type_board(browser, pasted)
    assert _tiles(browser) == list(fp.Board(pasted).tiles) and _board_text(browser) == pasted
    _set_shape(browser, 2, 4)
    _type_board(browser, "1 2 3 4 5 6 _ 7")
    assert fp.Board(_board_text(browser)).shape == (2, 4)
    # The box follows the board while a solution plays.
    _set_shape(browser, 4, 4)
    browser.find_element("id", "random").click()
    _status_when(browser, ("uniformly random",))
    assert _solve_on_page(browser, "fast").startswith("Solved")
    start = _board_text(browser)
    _choose(browser, "speed", "10")
    browser.find_element("id", "play").click()
    from selenium.webdriver.support.ui import WebDriverWait

    def moved_while_playing(driver: Any) -> bool:
        playing = driver.find_element("id", "play").text == "pause"
        return playing and _board_text(driver) not in ("", start)

    WebDriverWait(browser, 10).until(moved_while_playing)
    shown = fp.Board(_tiles(browser), shape=(4, 4))
    assert fp.Board(_board_text(browser)).shape == (4, 4) and shown.is_solvable()
    browser.find_element("id", "play").click()  # pause
    # 5x5: only what can run, each with a heuristic to pick.
    _set_shape(browser, 5, 5)
    browser.find_element("id", "new-goal").click()
    assert _algorithms_offered(browser) == ["auto", "idastar", "fast", "anytime"]
    _choose(browser, "algorithm", "idastar")
    assert _heuristics_offered(browser)
    _set_shape(browser, 3, 3)
    browser.find_element("id", "new-goal").click()
    assert "bfs" in _algorithms_offered(browser)
    # A build's note after a search's counts: the note is shown.
    noted = threading.Event()
    real = jobs.solve

    def solve(board: Any, goal: Any, **options: Any) -> Any:
        progress = options.get("progress")
        if progress is not None:
            progress(fp.SearchStats(expanded=5000, depth=20, seconds=0.1))
        logging.getLogger("fastpuzzle.pdb.store").info("pattern database 3x3 group 1/2 built")
        noted.wait(10)
        return real(board, goal, **options)

    monkeypatch.setattr(jobs, "solve", solve)
    _type_board(browser, "8 6 7/2 5 4/3 _ 1")
    _choose(browser, "algorithm", "idastar")
    browser.find_element("id", "solve").click()
    try:
        WebDriverWait(browser, 10).until(
            lambda d: "group 1/2" in d.find_element("id", "progress").text
        )
    finally:
        noted.set()
    assert _status_when(browser, ("Solved",)).startswith("Solved")


def test_a_fast_solve_from_the_page_stays_the_millisecond_answer():
    # solve(optimal=False) under a time limit shortens its answer until the limit (issue 55);
    # the page's 'fast' keeps the constructive answer, its default 30 s no budget to spend.
    board = fp.random_board((6, 6), rng=1)
    body = {"rows": 6, "cols": 6, "board": list(board.tiles), "algorithm": "fast"}
    _, _, options = jobs.solve_request(body)
    assert options["limits"].seconds is None and options["limits"].nodes is None
    assert fp.solve(board, **options).algorithm == "constructive"
