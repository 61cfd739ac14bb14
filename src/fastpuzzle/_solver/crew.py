"""Threads that either begin running within seconds or count as not started.

``threading.Thread.start()`` (and so ``ThreadPoolExecutor.submit``) waits without a timeout for
the new thread to say it runs. A thread the system creates but that dies in its bootstrap, as
one does when an address-space limit (``ulimit -v``) leaves room for its stack and not for its
first Python objects, never says so, and the search that started it waited for ever. A
:class:`Crew` starts its threads with :func:`_thread.start_new_thread`, which waits for
nothing, and waits for each new thread's first word itself, for at most
:data:`START_SECONDS`: a thread that has not begun by then is a
:class:`~fastpuzzle.errors.ThreadStartError`, and if it begins later it ends at once.

The threads are not ``threading.Thread`` objects (``threading.enumerate()`` does not list
them): :func:`running` counts those not ended yet.
"""

from __future__ import annotations

import _thread
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from fastpuzzle.errors import ThreadStartError

__all__ = ["START_SECONDS", "Crew", "cannot_start", "running"]

#: The longest a new thread may take to begin running before it counts as not started. A
#: thread begins within milliseconds even on a loaded machine (it has nothing to wait for but a
#: core); one that died starting would be waited for past any time limit.
START_SECONDS = 5.0

_count_lock = threading.Lock()
_running = 0


def running() -> int:
    """The threads of every :class:`Crew` that began and have not ended yet."""
    return _running


def _counted(change: int) -> None:
    global _running
    with _count_lock:
        _running += change


def cannot_start(what: str, why: str) -> ThreadStartError:
    """The error for ``what`` (a thread, named for the user) that did not start, ``why``."""
    return ThreadStartError(
        f"the system would not start {what}: {why}; a limit on threads or memory "
        "(ulimit -u, a container's pids.max, ulimit -v) binds: ask for fewer"
    )


_Call = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]


class _Member:
    """One thread of a crew: it runs the calls put in its inbox, in order, until a None."""

    def __init__(self) -> None:
        self.inbox: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self.began = threading.Event()
        self.ended = threading.Event()
        # Taken to decide, once, whether the thread began in time or was given up.
        self.turn = threading.Lock()
        self.given_up = False

    def main(self) -> None:
        with self.turn:
            if self.given_up:
                return  # began after its starter gave up on it: nobody will send it work
            _counted(1)
            self.began.set()
        try:
            while (item := self.inbox.get()) is not None:
                future, call, args = item
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    result = call(*args)
                except BaseException as error:  # the caller's to raise, Ctrl-C included
                    future.set_exception(error)
                else:
                    future.set_result(result)
                del future, call, args, item  # nothing of a finished call outlives it here
        finally:
            _counted(-1)
            self.ended.set()

    def start(self, what: str, seconds: float) -> None:
        """Start the thread and wait for it to begin; a Ctrl-C meanwhile leaves the thread
        given up unless it has begun (then :meth:`Crew.close` ends it)."""
        try:
            _thread.start_new_thread(self.main, ())
        except RuntimeError as error:  # "can't start new thread"
            self.given_up = True
            raise cannot_start(what, str(error)) from error
        try:
            self.began.wait(seconds)
        finally:
            with self.turn:
                self.given_up = not self.began.is_set()
        if self.given_up:
            raise cannot_start(
                what,
                f"it did not begin running within {seconds:g} s (a thread dies starting "
                "without memory for its first objects; or the machine is too loaded to run it)",
            )


class Crew:
    """Up to ``size`` threads, each started when first given work and running its calls in
    the order given; :meth:`close` ends them and waits for them."""

    def __init__(self, size: int) -> None:
        self._members: list[_Member | None] = [None] * size

    def submit(self, index: int, what: str, call: Callable[..., Any], *args: Any) -> Future[Any]:
        """``call(*args)`` on thread ``index`` (started now if it was not: ``what`` names it).

        Raises
        ------
        ThreadStartError
            The thread could not be started, or did not begin within :data:`START_SECONDS`.
        """
        member = self._members[index]
        if member is None:
            # Kept before it starts: a Ctrl-C in the start leaves one that began to close().
            member = self._members[index] = _Member()
            member.start(what, START_SECONDS)
        elif member.given_up:  # a crew whose start failed is closed, not given more work
            raise cannot_start(what, "it did not start when first asked")
        future: Future[Any] = Future()
        member.inbox.put((future, call, args))
        return future

    def close(self) -> None:
        """End every thread once its calls are done, and wait for them."""
        members = [member for member in self._members if member and not member.given_up]
        for member in members:
            member.inbox.put(None)
        for member in members:
            member.ended.wait()
