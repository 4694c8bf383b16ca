"""AI usage preferences from Python: `Crawler.usage`, `Robots.usage`, the file-wide records
(`License`, `LLM-Policy`, file-wide `Content-Signal`), and the drop-ins' extra methods."""

from __future__ import annotations

import pytest

from robotrules import InvalidUrl, Robots, Usage
from robotrules.protego import Protego
from robotrules.robotparser import RobotFileParser

# draft-ietf-aipref-attach-05 §5 (Example), with a Cloudflare line in the `*` group.
ATTACH_EXAMPLE = b"""User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: search=yes, ai-input=no

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
"""


@pytest.mark.parametrize(
    ("agent", "path", "crawlable", "train_ai"),
    [
        # attach-05 §5's table for every crawler but ExampleBot.
        ("OtherBot", "/test", True, "disallowed"),
        ("OtherBot", "/never/test", False, "unknown"),
        ("OtherBot", "/ai-ok/test", True, "allowed"),
        # ExampleBot uses its own group: train-ai=y everywhere.
        ("ExampleBot", "/test", True, "allowed"),
        ("ExampleBot", "/never/test", True, "allowed"),
    ],
)
def test_the_attach_drafts_example(agent: str, path: str, crawlable: bool, train_ai: str) -> None:
    usage = Robots.parse(ATTACH_EXAMPLE).crawler(agent).usage(path)
    assert isinstance(usage, Usage)
    assert usage.crawlable is crawlable
    assert usage.outcome("aipref", "train-ai") == train_ai


def test_each_vocabulary_in_its_own_terms_with_the_deciding_lines() -> None:
    usage = Robots.parse(ATTACH_EXAMPLE).usage("OtherBot", "https://example.com/ai-ok/test")
    aipref, signals = usage.vocabularies
    assert (aipref.vocabulary, aipref.key) == ("aipref", "content-usage")
    assert aipref.draft.startswith("draft-ietf-aipref-vocab-")
    assert [c.label for c in aipref.categories] == ["train-ai", "search"]
    train = aipref.category("train-ai")
    assert train is not None
    # The longest matching path wins: line 5, not line 4.
    assert (train.outcome, train.lines, train.header) == ("allowed", [5], False)
    assert aipref.applied == [5]
    assert usage.outcome("aipref", "search") == "unknown"
    assert (signals.vocabulary, signals.key) == ("content-signals", "content-signal")
    assert [(c.label, c.outcome, c.lines) for c in signals.categories] == [
        ("search", "allowed", [6]),
        ("ai-input", "disallowed", [6]),
        ("ai-train", "unknown", []),
    ]
    # The key that carries a vocabulary names it too.
    assert usage.vocabulary("content-signal") is not None
    assert usage.category("content-signals", "ai-input") is not None
    assert usage.category("aipref", "no-such-label") is None


def test_the_combined_answer_for_the_shared_categories() -> None:
    body = b"User-agent: *\nContent-Usage: train-ai=y\nContent-Signal: ai-train=no, search=yes\n"
    usage = Robots.parse(body).crawler("Bot").usage("/x")
    # vocab-07 §5.1: any disallow wins.
    assert (usage.train_ai, usage.search) == ("disallowed", "allowed")
    train, search = usage.combined
    assert (train.category, train.outcome, train.lines) == ("train-ai", "disallowed", [3])
    assert (search.category, search.outcome, search.lines) == ("search", "allowed", [3])


def test_a_disallowed_url_has_no_preference() -> None:
    usage = Robots.parse(ATTACH_EXAMPLE).crawler("OtherBot").usage("/never/test")
    assert not usage.crawlable
    assert usage.vocabularies == [] and usage.combined == []
    assert (usage.train_ai, usage.search) == ("unknown", "unknown")
    assert usage.vocabulary("aipref") is None
    assert repr(usage) == "Usage(crawlable=False)"


def test_a_dictionary_that_does_not_parse_is_unknown_and_says_where() -> None:
    robots = Robots.parse(b"User-agent: *\nContent-Usage: train-ai=n, ,search\n")
    bot = robots.crawler("Bot")
    usage = bot.usage("/")
    aipref = usage.vocabulary("aipref")
    assert aipref is not None
    assert aipref.unparsed == [2]
    assert usage.train_ai == "unknown"
    (statement,) = bot.usage_statements
    assert statement.members is None
    assert statement.error_offset is not None and statement.error
    assert statement.preference == "train-ai=n, ,search"


def test_usage_statements_read_the_path_and_the_dictionary() -> None:
    bot = Robots.parse(ATTACH_EXAMPLE).crawler("OtherBot")
    statements = bot.usage_statements
    assert [(s.vocabulary, s.line, s.group, s.path) for s in statements] == [
        ("aipref", 4, 0, None),
        ("aipref", 5, 0, "/ai-ok/"),
        ("content-signals", 6, 0, None),
    ]
    assert statements[1].preference == "train-ai=y"
    assert statements[2].members == [("search", "yes"), ("ai-input", "no")]
    assert statements[2].error_offset is None and statements[2].error is None
    # A key without a value is the Boolean true; another type is None.
    odd = Robots.parse(b'User-agent: *\nContent-Usage: train-ai, search=1, x="s"\n')
    assert odd.crawler("Bot").usage_statements[0].members == [
        ("train-ai", True),
        ("search", None),
        ("x", None),
    ]


def test_the_http_header_combines_most_restrictively() -> None:
    robots = Robots.parse(b"User-agent: *\nContent-Usage: train-ai=y\n")
    usage = robots.crawler("Bot").usage("/a", header="train-ai=n")
    train = usage.category("aipref", "train-ai")
    assert train is not None
    assert (train.outcome, train.header, train.lines) == ("disallowed", True, [])
    assert robots.usage("Bot", "/a", header=b"train-ai=n").train_ai == "disallowed"
    assert robots.crawler("Bot").usage("/a").with_header("train-ai=n").train_ai == "disallowed"
    # A header value that does not parse states nothing.
    assert robots.crawler("Bot").usage("/a", header="(((").train_ai == "allowed"


def test_unknown_labels_are_reported_and_decide_nothing_else() -> None:
    usage = Robots.parse(b"User-agent: *\nContent-Usage: bots=n, train-ai=y\n").usage("B", "/")
    aipref = usage.vocabulary("aipref")
    assert aipref is not None
    assert [c.label for c in aipref.categories] == ["train-ai", "search", "bots"]
    assert usage.outcome("aipref", "bots") == "disallowed"
    assert usage.train_ai == "allowed"


def test_errors() -> None:
    robots = Robots.parse(ATTACH_EXAMPLE)
    with pytest.raises(InvalidUrl):
        robots.crawler("Bot").usage("not a url")
    with pytest.raises(ValueError, match="vocabulary"):
        robots.crawler("Bot").usage("/").outcome("ietf", "train-ai")  # type: ignore[arg-type]


def test_file_wide_records() -> None:
    body = (
        b"License: /license.xml\n"
        b"Content-Signal: search=yes, ai-train=no\n"
        b"User-agent: *\n"
        b"Disallow: /private/\n"
        b"LLM-Policy: https://example.com/llm.txt\n"
    )
    robots = Robots.parse(body)
    assert robots.licenses == ["/license.xml"]
    assert robots.licenses_from("https://example.com/robots.txt") == [
        "https://example.com/license.xml"
    ]
    assert robots.llm_policies == ["https://example.com/llm.txt"]
    assert robots.llm_policies_from("https://example.com/robots.txt") == [
        "https://example.com/llm.txt"
    ]
    assert robots.file_signals == [("search=yes, ai-train=no", 2)]
    # A file-wide Content-Signal speaks to every crawler.
    usage = robots.crawler("AnyBot").usage("/")
    assert usage.outcome("content-signals", "ai-train") == "disallowed"
    assert usage.category("content-signals", "search").lines == [2]  # type: ignore[union-attr]


def test_the_protego_drop_in_answers_usage() -> None:
    parser = Protego.parse(ATTACH_EXAMPLE.decode() + "License: https://example.com/l.xml\n")
    assert parser.usage("https://example.com/test", "OtherBot").train_ai == "disallowed"
    assert parser.usage("https://example.com/ai-ok/test", "OtherBot").train_ai == "allowed"
    assert not parser.usage("/never/test", "Mozilla/5.0 (compatible; OtherBot/1.0)").crawlable
    # A URL Protego would read as a path is read as one here too.
    assert parser.usage("ai-ok/test", "OtherBot").train_ai == "allowed"
    assert list(parser.licenses) == ["https://example.com/l.xml"]
    assert list(parser.llm_policies) == []
    # Protego's own API is unchanged.
    assert not parser.can_fetch("/never/test", "OtherBot")


def test_the_robotparser_drop_in_answers_usage_as_can_fetch_does() -> None:
    parser = RobotFileParser()
    # Nothing read yet: nothing may be fetched, so nothing has a preference.
    assert not parser.usage("OtherBot", "/test").crawlable
    assert parser.licenses() is None
    parser.parse(ATTACH_EXAMPLE.decode().splitlines())
    assert parser.usage("OtherBot", "https://example.com/test").train_ai == "disallowed"
    assert parser.usage("ExampleBot", "/test").train_ai == "allowed"
    assert parser.llm_policies() is None
    # After a 4xx: crawlable, every category unknown; after a 5xx: not crawlable.
    parser.allow_all = True
    opened = parser.usage("OtherBot", "/test")
    assert opened.crawlable and opened.train_ai == "unknown"
    parser.allow_all, parser.disallow_all = False, True
    assert not parser.usage("OtherBot", "/test").crawlable


def test_the_scrapy_drop_in_answers_usage() -> None:
    pytest.importorskip("scrapy")
    from robotrules.scrapy import RobotRulesParser

    parser = RobotRulesParser.from_crawler(None, ATTACH_EXAMPLE)  # type: ignore[arg-type]
    assert parser.usage("https://example.com/test", b"OtherBot/1.0").train_ai == "disallowed"
    assert parser.usage(b"https://example.com/test", "ExampleBot").train_ai == "allowed"
    assert parser.allowed("https://example.com/test", "OtherBot")


def test_reprs() -> None:
    usage = Robots.parse(ATTACH_EXAMPLE).crawler("OtherBot").usage("/test")
    assert repr(usage).startswith('Usage(crawlable=True, train_ai="disallowed"')
    assert "train-ai=disallowed" in repr(usage.vocabularies[0])
    assert "train-ai" in repr(usage.combined[0])
    assert 'label="train-ai"' in repr(usage.vocabularies[0].categories[0])
    assert "line=4" in repr(Robots.parse(ATTACH_EXAMPLE).crawler("B").usage_statements[0])
