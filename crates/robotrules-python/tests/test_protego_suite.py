"""Protego's own tests, from its pinned sdist, run against `robotrules.protego.Protego`.

`protego.Protego` is replaced by the drop-in before the test modules are imported, so their
`from protego import Protego` binds ours; `protego._utils` (imported by `test_protego.py`
for tests of Protego's private helpers) stays Protego's. Every test either passes or is an
expected failure listed in `conftest.py` (`DEVIATIONS`) and in `docs/python.md`, with the
reason; an expected failure that passes fails the run.
"""

from __future__ import annotations

import protego

import robotrules.protego
from suites import PROTEGO_VERSION, load, sdist

_root = sdist("protego", PROTEGO_VERSION)
protego.Protego = robotrules.protego.Protego  # type: ignore[misc]

_spec = load(_root / "tests" / "test_protego.py", "protego_suite_test_protego")
_google = load(_root / "tests" / "test_on_google_spec.py", "protego_suite_test_on_google_spec")
_fetched = load(
    _root / "tests" / "test_on_fetched_robotstxt.py", "protego_suite_test_on_fetched_robotstxt"
)

# The test classes and functions, collected here (pytest collects what a module holds).
for _module, _mark in ((_spec, ""), (_google, "google_spec"), (_fetched, "fetched")):
    for _name, _value in vars(_module).items():
        if _name.startswith(("test_", "Test")):
            # `test_on_google_spec.py`'s `test_x` is collected as `test_google_spec__x`.
            _head, _tail = _name[:4], _name[4:].lstrip("_")
            globals()[f"{_head}_{_mark}__{_tail}" if _mark else _name] = _value
