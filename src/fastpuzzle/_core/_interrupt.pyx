"""Ctrl-C for compiled searches on any thread.

Python runs signal handlers on the main thread only, so a search on a worker thread (one of
:func:`fastpuzzle.solve_many`'s) never sees Ctrl-C through ``PyErr_CheckSignals``. The batch
therefore runs each chunk through :func:`run_stoppable` with a stop event that its main thread
sets when it is interrupted; every place where a compiled search checks for signals calls
``poll_interrupt``, which also raises ``KeyboardInterrupt`` on a thread whose event is set.
"""

import threading

from cpython.exc cimport PyErr_SetNone

cdef extern from "Python.h":
    # Without an exception value: the caller decides how to pass the exception on.
    int run_signal_handlers "PyErr_CheckSignals"() noexcept

# The stop event of the chunk that the current thread runs, if any.
_local = threading.local()


cdef bint stop_requested() noexcept:
    """Whether this thread's stop event is set (False on a thread that has none)."""
    event = getattr(_local, "event", None)
    return event is not None and event.is_set()


cdef int poll_interrupt() noexcept:
    """Run the signal handlers, then look at this thread's stop event.

    Returns -1 with the exception set (the handler's, or ``KeyboardInterrupt`` when the event is
    set), else 0.
    """
    if run_signal_handlers() < 0:
        return -1
    if stop_requested():
        PyErr_SetNone(KeyboardInterrupt)
        return -1
    return 0


cdef int check_interrupt() except -1:
    """``poll_interrupt`` for callers that let Cython propagate the exception."""
    return poll_interrupt()


def run_stoppable(event, function, *args):
    """Call ``function(*args)`` on this thread; its compiled searches raise ``KeyboardInterrupt``
    at their next check once ``event`` (a :class:`threading.Event`) is set."""
    previous = getattr(_local, "event", None)
    _local.event = event
    try:
        return function(*args)
    finally:
        _local.event = previous


def raise_if_stopped():
    """Raise ``KeyboardInterrupt`` when this thread's stop event (:func:`run_stoppable`) is
    set; for Python code that waits on other threads, such as a parallel search's caller."""
    if stop_requested():
        raise KeyboardInterrupt
