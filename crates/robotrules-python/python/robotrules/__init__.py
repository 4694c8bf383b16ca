"""robotrules: the Robots Exclusion Protocol (RFC 9309, Google's reference, the 1994 convention).

Parse a robots.txt body once, then ask as often as you like, from as many threads as you like::

    from robotrules import Robots

    robots = Robots.parse(b"User-agent: *\\nDisallow: /private/\\n")
    robots.is_allowed("ExampleBot", "https://example.com/private/x")  # False
    bot = robots.crawler("ExampleBot")
    bot.allowed_many(["/", "/private/a"])  # [True, False]
    bot.explain("/private/a").line  # 2

AI usage preferences (``Content-Usage``, ``Content-Signal``) per URL and crawler::

    robots = Robots.parse(b"User-agent: *\\nContent-Usage: train-ai=n\\n")
    usage = robots.crawler("ExampleBot").usage("/page")
    usage.train_ai  # 'disallowed'
    usage.category("aipref", "train-ai").lines  # [2]

``Survey`` is ``robotrules survey``'s per-capture function, for engines that read WARC files
themselves (``examples/spark/survey.py`` runs it on Spark).

Drop-ins for other libraries live in submodules: ``robotrules.protego.Protego``,
``robotrules.scrapy.RobotRulesParser`` and ``robotrules.robotparser.RobotFileParser``.
"""

from robotrules._robotrules import (
    DEFAULT_PARSE_LIMIT,
    PROFILES,
    CategoryUsage,
    CombinedUsage,
    Crawler,
    Diagnostic,
    Explanation,
    Finding,
    InvalidAgent,
    InvalidUrl,
    NameReading,
    RequestRate,
    Robots,
    SURVEY_COLUMNS,
    SURVEY_USAGE_COLUMNS,
    RuleMatch,
    Survey,
    Surveyed,
    Usage,
    UsageStatement,
    VocabularyUsage,
    __version__,
    crawler_token,
    governs,
    lint,
    name_reading,
    status_access,
    url_key,
)

__all__ = [
    "__version__",
    "DEFAULT_PARSE_LIMIT",
    "PROFILES",
    "CategoryUsage",
    "CombinedUsage",
    "Crawler",
    "Diagnostic",
    "Explanation",
    "Finding",
    "InvalidAgent",
    "InvalidUrl",
    "NameReading",
    "RequestRate",
    "Robots",
    "RuleMatch",
    "SURVEY_COLUMNS",
    "SURVEY_USAGE_COLUMNS",
    "Survey",
    "Surveyed",
    "Usage",
    "UsageStatement",
    "VocabularyUsage",
    "crawler_token",
    "governs",
    "lint",
    "name_reading",
    "status_access",
    "url_key",
]
