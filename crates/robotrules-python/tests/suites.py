"""Where the other projects' own test suites are: the sdists `cargo xtask test` unpacks.

`cargo xtask test` downloads the pinned sdists of Scrapy and Protego (`pip download
--no-binary :all: --no-deps`) into `target/python-sdists/` and unpacks them there; the
`ROBOTRULES_SDISTS` environment variable points elsewhere. Without them, the suites are
skipped with that reason (never silently passed).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

#: The pinned versions (the same pins as `xtask/src/python.rs`).
PROTEGO_VERSION = "0.7.0"
SCRAPY_VERSION = "2.19.0"

_REPO = Path(__file__).resolve().parents[3]
SDISTS = Path(os.environ.get("ROBOTRULES_SDISTS", _REPO / "target" / "python-sdists"))


def sdist(name: str, version: str) -> Path:
    """The unpacked sdist `name-version`, or a skip of the calling module."""
    root = SDISTS / f"{name}-{version}"
    if not (root / "tests").is_dir():
        pytest.skip(
            f"{name} {version} sdist not unpacked under {SDISTS} (run `cargo xtask test`)",
            allow_module_level=True,
        )
    return root


def load(path: Path, name: str) -> ModuleType:
    """Import the test module at `path` as `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
