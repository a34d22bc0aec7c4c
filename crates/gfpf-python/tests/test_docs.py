"""The Python examples of the docs run as written."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
PAGES = ["docs/PYTHON.md", "crates/gfpf-python/README.md", "README.md"]


def _examples():
    for page in PAGES:
        text = (ROOT / page).read_text()
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
            yield pytest.param(block, id=f"{page}#{i}")


@pytest.mark.parametrize("code", list(_examples()))
def test_example_runs(code):
    if "dask" in code:
        pytest.importorskip("dask.distributed", reason="dask[distributed] is not installed")
    exec(compile(code, "<example>", "exec"), {})


def test_the_package_docstring_example():
    import doctest

    import gfpf

    failures, tried = doctest.testmod(gfpf)
    assert tried > 0 and failures == 0


def test_every_public_name_has_a_docstring():
    import inspect

    import gfpf

    missing = []
    for name in gfpf.__all__:
        obj = getattr(gfpf, name)
        if name.isupper() or name.startswith("__"):
            continue  # constants
        if not inspect.getdoc(obj):
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member, value in vars(obj).items():
                if not member.startswith("_") and not inspect.getdoc(value):
                    missing.append(f"{name}.{member}")
    assert not missing, missing
