"""Optional dependencies: import one, or say which extra installs it."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, feature: str, extra: str, *, package: str | None = None) -> ModuleType:
    """Import ``module`` for ``feature``; when it is missing, an ImportError naming ``extra``
    and ``package``, the name pip installs (default: the module's top name).

    Examples
    --------
    >>> require("json", "reading", "none").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{feature} needs {package or module.split('.')[0]}: pip install 'fastpuzzle[{extra}]'"
        ) from error
