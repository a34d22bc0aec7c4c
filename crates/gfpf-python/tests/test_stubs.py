"""The type stubs agree with the module at run time (mypy's stubtest)."""

import subprocess
import sys

import pytest


def test_stubs_match_the_runtime():
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "gfpf"], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
