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


@pytest.mark.parametrize("row", table("crawler-name.tsv"), ids="\t".join)
def test_a_user_agent_stands_for_the_crawler_its_table_names(row: list[str]) -> None:
    user_agent, profile, expected = row
    robots = robotrules.Robots.parse(b"user-agent: *\ndisallow: /x\n", profile=profile)
    assert robots.crawler_for(user_agent).name == expected


def test_the_drop_ins_read_user_agents_by_the_table() -> None:
    from robotrules import _agents

    for user_agent, profile, expected in table("crawler-name.tsv"):
        robots = robotrules.Robots.parse(b"", profile=profile)
        assert _agents.Crawlers(robots)(user_agent).name == expected


def test_name_reading_and_governs() -> None:
    robots = robotrules.Robots.parse(
        b"user-agent: *\ndisallow: /\n\nuser-agent: MJ12bot\ndisallow: /x\n", profile="google"
    )
    reading = robots.name_reading("MJ12bot")
    assert reading is not None
    assert (reading.name, reading.reads, reading.token) == ("MJ12bot", "MJ", "MJ")
    assert reading.message.endswith("it gets the `*` group at line 1; pass `MJ`, which gets the group at line 4")
    assert robots.name_reading("Googlebot") is None
    assert robotrules.name_reading("MJ12bot", profile="rfc9309") is None
    assert robotrules.name_reading("MJ12bot", profile="google").token == "MJ"
    assert robotrules.governs("https://example.com/robots.txt", "https://EXAMPLE.com:443/a")
    assert not robotrules.governs("https://example.com/robots.txt", "https://www.example.com/a")
    assert robotrules.governs("https://example.com/robots.txt", "/a")
    with pytest.raises(robotrules.InvalidUrl):
        robotrules.governs("https://example.com/robots.txt", "example.com/a")
