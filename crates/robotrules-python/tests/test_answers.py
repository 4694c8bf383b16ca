"""The answer tables in ``conformance/answers/``, through the Python package: the same tables
run through the Rust facade and the npm package, so that no surface reads them differently."""

from __future__ import annotations

from pathlib import Path

import pytest

import robotrules

ANSWERS = Path(__file__).resolve().parents[3] / "conformance" / "answers"


def table(name: str) -> list[list[str]]:
    rows = []
    for line in (ANSWERS / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


@pytest.mark.parametrize("row", table("status-access.tsv"), ids="\t".join)
def test_status_access_follows_its_table(row: list[str]) -> None:
    status, location, policy, expected = row
    assert robotrules.status_access(int(status), location == "yes", policy) == expected


def test_status_access_refuses_an_unknown_reading_of_429() -> None:
    with pytest.raises(ValueError, match="too_many_requests"):
        robotrules.status_access(429, False, "allow")
