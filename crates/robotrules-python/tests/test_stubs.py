"""The `.pyi` stubs match the native module: mypy's `stubtest` compares them with what the
built module holds, and mypy checks the pure-Python modules against them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

_PACKAGE = Path(__file__).resolve().parents[1] / "python"


def test_stubtest_finds_the_stubs_true_to_the_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "robotrules._robotrules"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_adapters_type_check_against_the_stubs() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--ignore-missing-imports",
            str(_PACKAGE / "robotrules"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
