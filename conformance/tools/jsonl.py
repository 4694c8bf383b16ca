"""Writing corpus files: one case per line, UTF-8 without ASCII escaping, LF line ends.

Shared by the generators (import.py, seed_cases.py, fetch_cases.py) so every file of the
corpus is written the same way and regenerating it gives the same bytes.
"""

import json
import os


def write_jsonl(path, cases):
    """Write cases one per line (UTF-8, no ASCII escaping, trailing newline)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for item in cases:
            handle.write(json.dumps(item, ensure_ascii=False) + "\n")
