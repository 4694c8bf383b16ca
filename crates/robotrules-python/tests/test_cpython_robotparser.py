"""CPython's own `Lib/test/test_robotparser.py`, for the running Python, run against
`robotrules.robotparser.RobotFileParser`.

The test module comes from the standard library's `test` package of the interpreter running
the tests (nothing is fetched); where that package is not installed, the module is skipped
with that reason. `urllib.robotparser.RobotFileParser` is replaced by the drop-in while its
tests run. Tests robotrules answers differently are listed, with the reason, in
`conftest.py` (`DEVIATIONS`).
"""

from __future__ import annotations

import contextlib
import sys
import urllib.robotparser
from collections.abc import Iterator

import pytest

import robotrules.robotparser

try:
    from test import test_robotparser as _suite
except ImportError:  # pragma: no cover - depends on how Python was installed
    pytest.skip(
        f"the standard library's test package is not installed for Python {sys.version.split()[0]}",
        allow_module_level=True,
    )


@pytest.fixture(autouse=True)
def _robotrules_parser(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(
        urllib.robotparser, "RobotFileParser", robotrules.robotparser.RobotFileParser
    )
    yield


# Classes with an expected failure inside `subTest`: their subtests run as plain asserts, so
# that the failure is the test's and the strict expected-failure mark sees it.
_FAILING_IN_SUBTESTS = {"UserAgentGoogleMobileTest", "UseFirstUserAgentWildcardTest"}


def _no_subtests(self: object, *args: object, **kwargs: object) -> contextlib.nullcontext[None]:
    return contextlib.nullcontext()


for _name, _value in vars(_suite).items():
    if isinstance(_value, type) and _name.endswith(("Test", "TestCase")) and _name != "BaseRobotTest":
        if _name in _FAILING_IN_SUBTESTS:
            _value = type(_name, (_value,), {"subTest": _no_subtests})
        globals()[_name] = _value
