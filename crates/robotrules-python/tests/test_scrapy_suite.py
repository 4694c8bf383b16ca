"""Scrapy's own `tests/test_robotstxt_interface.py`, from its pinned sdist, run against
`robotrules.scrapy.RobotRulesParser` by subclassing its `BaseRobotParserTest` as Scrapy does
for Protego: every test runs, except the order-based precedence test, skipped as Protego's
is (robotrules decides by the longest match, RFC 9309 §2.2.2, not by order).
"""

from __future__ import annotations

import sys

import pytest

from robotrules.scrapy import RobotRulesParser
from suites import SCRAPY_VERSION, load, sdist

_root = sdist("scrapy", SCRAPY_VERSION)
# The test module imports `tests.utils.robotstxt` from Scrapy's own `tests` package.
sys.path.insert(0, str(_root))
_interface = load(_root / "tests" / "test_robotstxt_interface.py", "scrapy_suite_interface")


class TestRobotRulesParser(_interface.BaseRobotParserTest):  # type: ignore[name-defined,misc]
    """Scrapy's parser-interface tests, for robotrules."""

    def setup_method(self) -> None:
        super()._setUp(RobotRulesParser)

    def test_order_based_precedence(self) -> None:
        pytest.skip("robotrules decides by the longest match (RFC 9309 §2.2.2), as Protego does")
