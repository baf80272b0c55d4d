"""Every word a person reads from the marked Python modules goes through gettext
(docs/translation.md, "The rule the tests hold").

An ``ast`` scan of each module of ``MARKED``: a string literal or f-string that reads as words
(two letters in a row and a space, or a sentence's end, or one capitalised word such as
"Waiting") is a failure unless it is

1. a docstring;
2. inside a call of the gettext family (``_``, ``gettext``, ``ngettext``, ``pgettext`` and
   their ``_lazy`` forms, ``gettext_noop``);
3. an argument of a logging call (``logger.info(...)``: words for operators, kept English),
   of a database call running SQL (``execute``), or
   of a programming error's ``raise`` (``ValueError``, ``TypeError``, ``KeyError``,
   ``RuntimeError``, ``AssertionError``, ``LookupError``), which no person is shown;
4. a dict's key (looked up, never shown), the value of a technical key or keyword
   (``TECHNICAL``: CSS classes, template names, ids), or assigned to a name ending in one of
   ``TECHNICAL_SUFFIXES``;
5. on a line that says why it is data, not words: ``# i18n: data`` (a log line's raw event
   fields, a card's printed name).

A single lowercase word ("dealer") cannot be told from an identifier by its form, so the scan
does not see one: such words are marked by hand all the same. A module joins ``MARKED`` when it
is marked in full; the list only grows.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each module whose every word is marked. Grows as modules are converted; never shrinks.
MARKED = (
    "accounts/forms.py",
    "accounts/models.py",
    "accounts/selectors/language.py",
    "accounts/selectors/names.py",
    "accounts/services/closure.py",
    "accounts/services/data_export.py",
    "accounts/services/email_confirmation.py",
    "accounts/services/language.py",
    "accounts/services/play_settings.py",
    "accounts/services/relations.py",
    "accounts/services/rename.py",
    "accounts/sign_in.py",
    "accounts/throttling.py",
    "accounts/views/account_page.py",
    "accounts/views/closing.py",
    "accounts/views/data_export.py",
    "accounts/views/email.py",
    "accounts/views/language.py",
    "accounts/views/notifications.py",
    "accounts/views/people.py",
    "accounts/views/play_settings.py",
    "accounts/views/profiles.py",
    "accounts/views/push.py",
    "accounts/views/register.py",
    "accounts/views/rename.py",
    "accounts/views/sign_in.py",
    "accounts/views/time_zone.py",
    "competitions/apps.py",
    "competitions/ladder_rules.py",
    "competitions/league_entries.py",
    "competitions/league_notice_words.py",
    "competitions/league_words.py",
    "competitions/models/ladder.py",
    "competitions/models/leagues.py",
    "competitions/notice_delivery.py",
    "competitions/presentation/cups.py",
    "competitions/presentation/ladder.py",
    "competitions/profile_events.py",
    "competitions/services/cups.py",
    "competitions/services/ladder.py",
    "competitions/views/cups.py",
    "competitions/views/ladder.py",
    "competitions/views/leagues.py",
    "games/forms.py",
    "games/lessons/base.py",
    "games/lessons/faraway.py",
    "games/lessons/gulliver.py",
    "games/models.py",
    "games/presentation/analysis.py",
    "games/presentation/chain_checks.py",
    "games/presentation/common.py",
    "games/presentation/faraway.py",
    "games/presentation/gulliver.py",
    "games/presentation/invitations.py",
    "games/presentation/js_words.py",
    "games/presentation/leaderboard.py",
    "games/presentation/leaving.py",
    "games/presentation/lessons.py",
    "games/presentation/names.py",
    "games/presentation/notices.py",
    "games/presentation/ratings.py",
    "games/presentation/reasons.py",
    "games/presentation/replay.py",
    "games/presentation/results.py",
    "games/push/turn.py",
    "games/services/analysis.py",
    "games/services/bots.py",
    "games/services/challenges.py",
    "games/services/errors.py",
    "games/services/hints.py",
    "games/services/holidays.py",
    "games/services/invitation_mail.py",
    "games/services/invitations.py",
    "games/services/leaving.py",
    "games/services/matches.py",
    "games/services/moves.py",
    "games/services/notifications.py",
    "games/services/phrases.py",
    "games/services/practice.py",
    "games/services/quick.py",
    "games/templatetags/site_help.py",
    "games/views/holidays.py",
    "games/views/invitations.py",
    "games/views/leaving.py",
    "games/views/lessons.py",
    "games/views/profiles.py",
)

GETTEXT = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "gettext_noop",
}
LOGGING_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
PROGRAMMING_ERRORS = {
    "ValueError",
    "TypeError",
    "KeyError",
    "RuntimeError",
    "AssertionError",
    "LookupError",
}
TECHNICAL = {
    "css",
    "corner_css",
    "template",
    "html_id",
    "id",
    "topic",
    "url",
    "code",
    "key",
    "content_type",
}
# Calls whose string arguments are code, not words (SQL).
CODE_CALLS = {"execute", "executemany", "raw"}
TECHNICAL_SUFFIXES = ("_TEMPLATE", "_CSS", "_PARTIAL", "_SECTION", "_KEY", "_URL")
DATA_MARK = "# i18n: data"

WORDS = re.compile(r"[A-Za-z]{2}")
# One capitalised word ("Waiting", "Pass") reads as a word; CamelCase names and UPPER codes not.
CAPITALISED = re.compile(r"^[A-Z][a-z]+$")


def _reads_as_words(text: str) -> bool:
    text = text.strip()
    if not WORDS.search(text):
        return False
    if " " in text or re.search(r"[A-Za-z][.!?]$", text):
        return True
    return bool(CAPITALISED.match(text))


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _exempt_subtrees(tree: ast.AST) -> set[int]:
    """The ids of every node the rules above exempt, with everything under them."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            roots.append(body[0])
        if isinstance(node, ast.Call):
            called = _name(node.func)
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            logging_call = called in LOGGING_METHODS and "log" in _name(receiver).lower()
            if called in GETTEXT or logging_call or called in CODE_CALLS:
                roots.append(node)
            for keyword in node.keywords:
                if keyword.arg in TECHNICAL:
                    roots.append(keyword.value)
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and _name(node.exc.func) in PROGRAMMING_ERRORS
        ):
            roots.append(node.exc)
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None:
                    roots.append(key)  # a key is looked up, never shown
                if isinstance(key, ast.Constant) and key.value in TECHNICAL:
                    roots.append(value)
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_name(t).endswith(TECHNICAL_SUFFIXES) for t in targets):
                roots.append(node)
    exempt: set[int] = set()
    for root in roots:
        exempt.update(id(n) for n in ast.walk(root))
    return exempt


def unmarked_words(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string in ``source`` that reads as words outside gettext."""
    tree = ast.parse(source)
    lines = source.splitlines()
    exempt = _exempt_subtrees(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(p.value for p in node.values if isinstance(p, ast.Constant))
            exempt.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        end = getattr(node, "end_lineno", node.lineno)
        if any(DATA_MARK in lines[i - 1] for i in range(node.lineno, end + 1)):
            continue
        if _reads_as_words(text):
            found.append((node.lineno, text))
    return found


@pytest.mark.parametrize("module", MARKED)
def test_every_word_of_a_marked_module_goes_through_gettext(module):
    found = unmarked_words((ROOT / module).read_text(encoding="utf-8"))
    assert not found, f"{module}: words outside gettext: " + "; ".join(
        f"line {line}: {text!r}" for line, text in found
    )


def test_the_scan_catches_words_and_passes_marks():
    source = '''
"""A docstring is fine."""
from django.utils.translation import gettext as _
import logging
logger = logging.getLogger(__name__)

def line(name):
    """So is this one."""
    logger.info("operators read %s", name)
    ok = _("%(name)s drew from the pack.") % {"name": name}
    css = {"css": "card fw fw-penalty"}
    raw = f"{name}: draw"  # i18n: data
    if not name:
        raise ValueError("no name given")
    bad = f"{name} drew from the pack."
    worse = "Draw from the pack"
    return ok, css, raw, bad, worse
'''
    assert [text for _, text in unmarked_words(source)] == [
        " drew from the pack.",
        "Draw from the pack",
    ]


def _rebinds_gettext(function: ast.AST) -> bool:
    """Whether ``function`` binds the name ``_`` itself (an argument such as ``**_``, an
    assignment, a loop), outside its comprehensions' own scopes."""
    arguments = function.args  # type: ignore[attr-defined]
    names = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    names += [a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None]
    if "_" in names:
        return True
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    inner = {
        id(node)
        for comp in ast.walk(function)
        if isinstance(comp, comprehensions)
        for node in ast.walk(comp)
    }
    return any(
        isinstance(node, ast.Name)
        and node.id == "_"
        and isinstance(node.ctx, ast.Store)
        and id(node) not in inner
        for node in ast.walk(function)
    )


def test_no_function_hides_gettext_behind_a_variable_called_underscore():
    """``**_`` or ``row, _ = ...`` in a function that words something with ``_()`` would call
    the variable instead of gettext (a sign-in once failed so)."""
    found = []
    apps = ("games", "accounts", "competitions")
    for path in sorted(path for app in apps for path in ROOT.glob(f"{app}/**/*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            calls = [
                c
                for c in ast.walk(node)
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "_"
            ]
            if calls and _rebinds_gettext(node):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert found == []
