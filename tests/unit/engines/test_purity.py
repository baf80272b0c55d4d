"""The rules layer stays pure: no framework, database, clock or global randomness."""

from tests.unit.purity import FRAMEWORK_ROOTS, GAMES, forbidden_imports, global_random_calls

ENGINES = GAMES / "engines"
CLOCK_ROOTS = {"time", "datetime"}


def test_engine_modules_exist():
    assert (ENGINES / "__init__.py").exists()
    assert (ENGINES / "base.py").exists()


def test_no_framework_clock_or_io_imports():
    assert forbidden_imports(ENGINES, FRAMEWORK_ROOTS | CLOCK_ROOTS) == []


def test_no_global_random_calls():
    """Only a seeded ``random.Random`` instance may be used, never the module-level functions."""
    assert global_random_calls(ENGINES) == []
