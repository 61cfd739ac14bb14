import threading
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")

def run_stoppable(event: threading.Event, function: Callable[..., _T], *args: object) -> _T: ...
def raise_if_stopped() -> None: ...
