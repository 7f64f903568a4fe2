"""The repository's own documents: every citation in the code points into docs/ and resolves.

The code cites the rule book and the design notes by section (``docs/rules.md §8``). A user who
clones the repository alone must find every cited document and section, so no file may cite
one outside docs/, and every cited section must be a heading of the cited document.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED_DIRS = ("solver", "bots", "bench", "tests", "notebooks")
SCANNED_SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".txt", ".cfg"}
DOCUMENTS = {name: ROOT / "docs" / f"{name}.md" for name in ("rules", "design")}

# The rule book or the design notes named without docs/ (the upper-case file names of the
# old notes), or cited by bare name and section: documents a clone of the repository lacks.
STALE_FILE = re.compile(r"(?<!docs/)\b(?:rules|design)\.md\b", re.IGNORECASE)
STALE_BARE = re.compile(r"\b(?:RULES|DESIGN)\s+§")
# "docs/rules.md §2-§8", "docs/rules.md §9.1", "docs/design.md §3", possibly across a line break.
CITATION = re.compile(
    r"docs/(rules|design)\.md((?:\s*(?:-|–|,|and|to)?\s*§\d+(?:\.\d+)*)+)")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)


def scanned_files() -> list[Path]:
    """README.md and every text file under the code folders."""
    files = [ROOT / "README.md"]
    for folder in SCANNED_DIRS:
        files += sorted(path for path in (ROOT / folder).rglob("*")
                        if path.is_file() and path.suffix in SCANNED_SUFFIXES)
    return files


def stale_mentions(text: str) -> list[str]:
    """Mentions of the rule book or design notes that do not point into docs/."""
    return [match.group(0) for pattern in (STALE_FILE, STALE_BARE)
            for match in pattern.finditer(text)]


def cited_sections(text: str) -> set[tuple[str, str]]:
    """(document, section) pairs cited in ``text``; a range ``§2-§8`` cites 2 to 8."""
    cited = set()
    for match in CITATION.finditer(text):
        document, span = match.group(1), match.group(2)
        numbers = SECTION.findall(span)
        cited.update((document, number) for number in numbers)
        for start, end in re.findall(r"§(\d+)\s*[-–]\s*§(\d+)(?![.\d])", span):
            cited.update((document, str(n)) for n in range(int(start), int(end) + 1))
    return cited


def headings(document: str) -> set[str]:
    """Section numbers of a document's headings (``## 3. A turn`` -> ``3``)."""
    return set(HEADING.findall(DOCUMENTS[document].read_text(encoding="utf-8")))


def test_the_checks_catch_what_they_look_for():
    old, bare = "RULES" + ".md", "RULES" + " §"
    assert stale_mentions(f"see {old} §3") == [old]
    assert stale_mentions(f"({bare}7)") == [bare]
    assert stale_mentions("see docs/rules.md §3 and docs/design.md §2") == []
    assert cited_sections("rules of docs/rules.md\n    §2-§4 and") == {
        ("rules", "2"), ("rules", "3"), ("rules", "4")}
    assert cited_sections("docs/rules.md §9.1-§9.4; docs/design.md §3") == {
        ("rules", "9.1"), ("rules", "9.4"), ("design", "3")}


@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_the_cited_documents_exist(document):
    assert DOCUMENTS[document].is_file()
    assert headings(document), f"docs/{document}.md has no numbered sections"


def test_no_citation_points_outside_docs():
    found = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}: {mention}" for mention in stale_mentions(text)]
    assert found == [], "cite docs/rules.md or docs/design.md instead:\n" + "\n".join(found)


def test_every_cited_section_is_a_heading():
    cited = set()
    missing = []
    for path in scanned_files():
        for document, number in cited_sections(path.read_text(encoding="utf-8",
                                                               errors="replace")):
            cited.add((document, number))
            if number not in headings(document):
                missing.append(f"{path.relative_to(ROOT)}: docs/{document}.md §{number}")
    assert cited, "the code cites no section: the scan found nothing"
    assert missing == [], "cited sections missing from the documents:\n" + "\n".join(missing)


# -- the worked examples of docs/rules.md, run again ---------------------------------------------
PLAY_HEADER = re.compile(r"^(Play \d+ cards?|No card can be played)")


def worked_examples() -> list[tuple[str, str]]:
    """(command line, first line of its quoted output) for every ``machiavelli solve`` in
    the console blocks of the rule book."""
    text = DOCUMENTS["rules"].read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, re.DOTALL):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ machiavelli solve "):
                examples.append((line[2:], lines[i + 1]))
    return examples


@pytest.mark.parametrize("command, quoted", worked_examples(),
                         ids=[command[18:] for command, _ in worked_examples()])
def test_worked_example_output_is_what_the_rule_book_quotes(command, quoted, capsys):
    import shlex

    from bots.app.cli import main

    status = main(shlex.split(command)[1:] + ["--color", "never"])
    out, err = capsys.readouterr()
    if quoted.startswith("machiavelli: error:"):
        assert (status, err.strip()) == (2, quoted)
        return
    assert status == 0, err
    header = PLAY_HEADER.match(out)
    assert header is not None, out
    assert header.group(1) == PLAY_HEADER.match(quoted).group(1), out
