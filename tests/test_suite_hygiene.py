"""The suite's own hygiene (issue 24), read with ast from tests/**/*.py:

(a) every test asserts something: an ``assert``, ``pytest.raises``/``fail``/``warns``,
    Playwright's ``expect(...).to_...``, or a call of a helper defined in tests/ that does
    (found by name, to a fixed point: a helper calling such a helper asserts too, and so does a
    fixture returning one, as ``refused`` returns ``check_refused``);
(b) no assert is a tautology: a true constant or literal (``assert True``, ``assert (x, "why")``),
    a thing compared with itself (``x == x``, ``f.p(1) <= f.p(1)``), ``a or not a``,
    ``len(x) >= 0``, ``isinstance(x, object)``;
(c) no test waits with a fixed sleep: ``time.sleep``, ``asyncio.sleep`` and Playwright's
    ``wait_for_timeout`` stand only inside a ``while`` or ``for`` loop (a poll that re-checks
    what it waits for); a wait for something that comes waits on it (``until``, ``steady``,
    ``locator.wait_for``), and a span in which nothing may happen is ``holds_for``'s
    (tests/browser/dashboard_page.py);
(d) every test that starts a server (a Voila, a JupyterLab, a kernel: through a fixture that
    does, at any depth, or by a call that does) is marked ``server``, on itself, its class or
    its module.

What it lets pass, to stay simple (each a place to look by hand, not a verdict):

- helpers are matched by name, not by where they are defined: a test calling ``x.click()``
  counts as asserting when some helper ``click`` of tests/ asserts;
- two calls of a bare function compared (``parse(s) is parse(s)``, ``values(SeededDice(7)) ==
  values(SeededDice(7))``) are a cache's or a seed's test, not a tautology; a method of one
  object read twice (``a.p(1) == a.p(1)``) is;
- a loop holding a sleep is taken for a poll, whether or not it re-checks anything;
- a server started by a bare ``subprocess.Popen`` is not seen (the modules that do so are
  marked as a whole).

Each check is shown failing on a snippet of its own."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PYTEST_ASSERTS = {"raises", "fail", "warns", "deprecated_call"}
SLEEPS = {"sleep", "wait_for_timeout"}
# the fixtures that start a server (conftest.py's, tests/browser/conftest.py's); a fixture
# that requests one of them starts one too
SERVER_FIXTURES = {
    "table_server",
    "players_server",
    "lab_server",
    "demo_fights",
    "demo_players",
    "serve_table",
    "serve_players",
    "gmkit_server",
    "chromium",
    "dice_entry_page",
}
# the calls that start one: conftest.py's launchers, serving_probe's Voila, a kernel
SERVER_CALLS = {"start_server", "serving", "start_process", "start_new_kernel", "Voila"}


@dataclass
class Module:
    path: str  # relative to the repository, with slashes
    tree: ast.Module
    fixtures: dict[str, ast.FunctionDef] = field(default_factory=dict)

    @property
    def conftest(self) -> bool:
        return self.path.endswith("/conftest.py")


def parse(path: str, source: str) -> Module:
    tree = ast.parse(source)
    module = Module(path, tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            "fixture" in ast.unparse(d) for d in node.decorator_list
        ):
            module.fixtures[node.name] = node  # type: ignore[assignment]
    return module


def suite() -> list[Module]:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "/plugins/" in relative:  # a game's package, not tests
            continue
        found.append(parse(relative, path.read_text(encoding="utf-8")))
    return found


def functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def collected(module: Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list]]:
    """The module's test functions, each with the decorators that mark it (its class's too)."""
    for node in module.tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield node, node.decorator_list
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    inner.name.startswith("test")
                ):
                    yield inner, [*node.decorator_list, *inner.decorator_list]


def called(node: ast.AST) -> str:
    """The name a call calls: ``f`` of ``f(...)`` and of ``x.y.f(...)``."""
    assert isinstance(node, ast.Call)
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return ""


def calls(node: ast.AST) -> Iterator[ast.Call]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            yield sub


# --- (a) every test asserts something ------------------------------------------------------


def asserts_itself(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assert):
            return True
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            owner = sub.func.value
            if (
                isinstance(owner, ast.Name)
                and owner.id == "pytest"
                and (sub.func.attr in PYTEST_ASSERTS)
            ):
                return True
            if sub.func.attr.startswith(("to_", "not_to_")):  # Playwright's expect(...)
                return True
    return False


def asserting_helpers(modules: Iterable[Module]) -> set[str]:
    """The names of the functions of tests/ that assert, to a fixed point."""
    defined = [fn for module in modules for fn in functions(module.tree)]
    found = {fn.name for fn in defined if asserts_itself(fn)}
    while True:
        more = set()
        for fn in defined:
            if fn.name in found:
                continue
            if any(called(call) in found for call in calls(fn)) or any(
                isinstance(sub, ast.Return)
                and isinstance(sub.value, ast.Name)
                and sub.value.id in found
                for sub in ast.walk(fn)
            ):
                more.add(fn.name)
        if not more:
            return found
        found |= more


def asserting_nothing(modules: list[Module]) -> list[str]:
    helpers = asserting_helpers(modules)
    bad = []
    for module in modules:
        for test, _marks in collected(module):
            if asserts_itself(test):
                continue
            if any(called(call) in helpers for call in calls(test)):
                continue
            bad.append(f"{module.path}:{test.lineno} {test.name}")
    return bad


# --- (b) no tautology ------------------------------------------------------------------------

REFLEXIVE = (ast.Eq, ast.Is, ast.LtE, ast.GtE)


def fresh(node: ast.AST) -> bool:
    """Whether ``node`` calls a bare function (``parse(s)``, ``SeededDice(7)``): a new value
    each time, whose sameness twice over is what a determinism or cache test asserts."""
    return any(isinstance(call.func, ast.Name) for call in calls(node))


def tautology(test: ast.expr) -> bool:
    if isinstance(test, ast.Constant):
        return bool(test.value)  # assert False is a deliberate failure, not a tautology
    if isinstance(test, ast.Tuple | ast.List | ast.Set):
        return bool(test.elts)  # assert (x == 1, "why"): a tuple, always true
    if isinstance(test, ast.Dict):
        return bool(test.keys)
    if isinstance(test, ast.JoinedStr | ast.Lambda):
        return True
    if isinstance(test, ast.Compare):
        sides = [test.left, *test.comparators]
        for op, left, right in zip(test.ops, sides, sides[1:], strict=False):
            same = ast.dump(left) == ast.dump(right)
            if same and isinstance(op, REFLEXIVE) and not fresh(left):
                return True
            if (
                isinstance(op, ast.GtE)
                and isinstance(right, ast.Constant)
                and right.value == 0
                and isinstance(left, ast.Call)
                and isinstance(left.func, ast.Name)
                and left.func.id == "len"
            ):
                return True
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        values = [ast.dump(v) for v in test.values]
        for value in test.values:
            if isinstance(value, ast.Constant) and value.value:
                return True
            negated = isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)
            if negated and ast.dump(value.operand) in values:  # type: ignore[attr-defined]
                return True
    return (  # isinstance(x, object)
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[1], ast.Name)
        and test.args[1].id == "object"
    )


def tautologies(modules: list[Module]) -> list[str]:
    return [
        f"{module.path}:{node.lineno} assert {ast.unparse(node.test)}"
        for module in modules
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Assert) and tautology(node.test)
    ]


# --- (c) no fixed sleep ----------------------------------------------------------------------


def fixed_sleeps(modules: list[Module]) -> list[str]:
    bad: set[tuple[str, int, str]] = set()
    for module in modules:
        bodies = [module.tree.body, *(fn.body for fn in functions(module.tree))]
        for body in bodies:  # the module's own statements, then each function's
            bad |= {(module.path, line, what) for line, what in _bare_sleeps(body)}
    return [f"{path}:{line} {what}" for path, line, what in sorted(bad)]


def _bare_sleeps(body: list[ast.stmt]) -> Iterator[tuple[int, str]]:
    """The sleeps in ``body`` outside any loop; nested functions and classes are their own."""
    for statement in body:
        yield from _bare_in(statement)


def _bare_in(node: ast.AST) -> Iterator[tuple[int, str]]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return  # read on its own
    if isinstance(node, ast.While | ast.For | ast.AsyncFor):
        return  # a poll: it re-checks what it waits for
    if isinstance(node, ast.Call) and called(node) in SLEEPS:
        yield node.lineno, ast.unparse(node)
    for child in ast.iter_child_nodes(node):
        yield from _bare_in(child)


# --- (d) a test that starts a server is marked so ----------------------------------------------


def marked_server(decorators: Iterable[ast.expr]) -> bool:
    return any("mark.server" in ast.unparse(d) for d in decorators)


def module_marked_server(module: Module) -> bool:
    for node in module.tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            return "mark.server" in ast.unparse(node.value)
    return False


def starts_a_server(node: ast.AST) -> bool:
    return any(called(call) in SERVER_CALLS for call in calls(node))


def requested(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    return {a.arg for a in arguments}


def unmarked_servers(modules: list[Module]) -> list[str]:
    conftests = [m for m in modules if m.conftest]
    bad = []
    for module in modules:
        folder = module.path.rsplit("/", 1)[0] + "/"
        visible: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        for conftest in sorted(conftests, key=lambda m: m.path.count("/")):  # nearest wins
            if folder.startswith(conftest.path.rsplit("/", 1)[0] + "/"):
                visible.update(conftest.fixtures)
        visible.update(module.fixtures)
        serving = set(SERVER_FIXTURES)
        while True:
            more = {
                name
                for name, fixture in visible.items()
                if name not in serving
                and (requested(fixture) & serving or starts_a_server(fixture))
            }
            if not more:
                break
            serving |= more
        whole = module_marked_server(module)
        for test, marks in collected(module):
            if whole or marked_server(marks):
                continue
            if requested(test) & serving or starts_a_server(test):
                bad.append(f"{module.path}:{test.lineno} {test.name}")
    return bad


# --- the suite -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def modules() -> list[Module]:
    return suite()


def test_every_test_asserts_something(modules):
    assert len([t for m in modules for t in collected(m)]) > 1000  # the suite was read
    assert asserting_nothing(modules) == []


def test_no_assert_is_a_tautology(modules):
    assert tautologies(modules) == []


def test_no_test_waits_with_a_fixed_sleep(modules):
    assert fixed_sleeps(modules) == []


def test_every_test_that_starts_a_server_is_marked_server(modules):
    assert unmarked_servers(modules) == []


# --- each check fails when it should ---------------------------------------------------------


def snippet(source: str, path: str = "tests/test_snippet.py") -> list[Module]:
    return [parse(path, source)]


def test_a_test_asserting_nothing_is_named():
    source = """
def helper(x):
    assert x
def hands_out():
    return helper
def test_asserts():
    assert 1 + 1 == 2
def test_raises():
    with pytest.raises(ValueError):
        int("x")
def test_through_a_helper():
    helper(3)
def test_through_a_fixture_s_helper(refused):
    hands_out()(3)
def test_expects(page):
    expect(page).to_have_title("x")
def test_nothing():
    x = 1 + 1
def test_only_calls(page):
    page.click("a")
"""
    assert asserting_nothing(snippet(source)) == [
        "tests/test_snippet.py:17 test_nothing",
        "tests/test_snippet.py:19 test_only_calls",
    ]


@pytest.mark.parametrize(
    "test",
    [
        "True",
        "1",
        "'always'",
        "(x == 1, 'why')",
        "[x]",
        "f'{x}'",
        "x == x",
        "a.b[1] is a.b[1]",
        "many.probability(105) == many.probability(105)",
        "1 < x <= x",
        "x or not x",
        "x or True",
        "len(items) >= 0",
        "isinstance(x, object)",
    ],
)
def test_a_tautology_is_named(test):
    assert tautologies(snippet(f"assert {test}\n")) == [f"tests/test_snippet.py:1 assert {test}"]


@pytest.mark.parametrize(
    "test",
    [
        "False",
        "x == y",
        "x != x",  # always false: it fails, it is no tautology
        "parse('1d6') is parse('1d6')",  # a cache: two calls, one value
        "values(SeededDice(7)) == values(SeededDice(7))",  # determinism
        "a.p(104) == a.p(106)",
        "len(items) >= 1",
        "x or not y",
        "isinstance(x, int)",
        "()",
    ],
)
def test_an_assert_that_can_fail_is_no_tautology(test):
    assert tautologies(snippet(f"assert {test}\n")) == []


def test_a_fixed_sleep_is_named_and_a_poll_is_not():
    source = """
def test_sleeps(page):
    time.sleep(0.5)
    page.wait_for_timeout(300)
    if ready:
        sleep(1)
async def test_awaits():
    await asyncio.sleep(0.1)
def test_polls(page):
    while not ready():
        time.sleep(0.1)
    for _ in range(100):
        if done():
            break
        page.wait_for_timeout(50)
def waits():
    def inner():
        time.sleep(2)
    later = lambda: time.sleep(3)
"""
    assert fixed_sleeps(snippet(source)) == [
        "tests/test_snippet.py:3 time.sleep(0.5)",
        "tests/test_snippet.py:4 page.wait_for_timeout(300)",
        "tests/test_snippet.py:6 sleep(1)",
        "tests/test_snippet.py:8 asyncio.sleep(0.1)",
        "tests/test_snippet.py:18 time.sleep(2)",
        "tests/test_snippet.py:19 time.sleep(3)",
    ]


def test_a_server_test_not_marked_is_named():
    conftest = """
@pytest.fixture
def campaign_served(serve_table):
    return serve_table("x")
@pytest.fixture
def kernel():
    return start_new_kernel()
@pytest.fixture
def plain(tmp_path):
    return tmp_path
"""
    tests = """
@pytest.fixture
def page(chromium, campaign_served):
    return chromium.new_page()
def test_direct(table_server):
    assert table_server
def test_through_fixtures(page):
    assert page
def test_through_a_kernel(kernel):
    assert kernel
def test_starts_its_own(tmp_path):
    server = start_server(["table"], tmp_path)
    assert server
@pytest.mark.server
def test_marked(table_server):
    assert table_server
def test_plain(plain):
    assert plain
class TestGrouped:
    def test_in_a_class(self, lab_server):
        assert lab_server
"""
    found = unmarked_servers(
        [parse("tests/conftest.py", conftest), parse("tests/test_snippet.py", tests)]
    )
    assert found == [
        "tests/test_snippet.py:5 test_direct",
        "tests/test_snippet.py:7 test_through_fixtures",
        "tests/test_snippet.py:9 test_through_a_kernel",
        "tests/test_snippet.py:11 test_starts_its_own",
        "tests/test_snippet.py:20 test_in_a_class",
    ]
    whole = "import pytest\npytestmark = [pytest.mark.browser, pytest.mark.server]\n" + tests
    assert (
        unmarked_servers([parse("tests/conftest.py", conftest), parse("tests/t.py", whole)]) == []
    )
    elsewhere = [parse("tests/other/conftest.py", conftest), parse("tests/test_snippet.py", tests)]
    assert "tests/test_snippet.py:9 test_through_a_kernel" not in unmarked_servers(elsewhere)
