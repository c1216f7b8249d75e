"""The contract as integrators meet it: third-party linters and client generators over the
committed ``openapi.yaml`` (which ``tests/api/test_preview.py`` holds equal to the code's).

The tools come from ``make contract-tools`` (npm, pinned by ``tools/contract/package-lock.json``)
and ``.[test]`` (openapi-python-client, openapi-generator-cli, datamodel-code-generator);
``make test`` installs both first (openapi-generator also needs a JRE: ``.ci/run`` installs
Debian's ``default-jre-headless`` where ``java`` is missing). Without them these tests are
skipped with how to install them on a developer's machine, and fail in CI (``tool_missing``),
so that a contract check cannot be skipped where it counts.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from tests.support import tool_missing

ROOT = Path(__file__).parents[2]
DOCUMENT = ROOT / "openapi.yaml"
TOOLS = ROOT / "tools" / "contract"
NODE_BIN = TOOLS / "node_modules" / ".bin"
VENV_BIN = Path(sys.executable).parent


def node_tool(name: str) -> Path:
    tool = NODE_BIN / name
    if not tool.exists() or shutil.which("node") is None:
        tool_missing(f"{name} is not installed: run `make contract-tools`")
    return tool


def run(
    command: list[str | Path], cwd: Path, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run a tool with the venv's scripts (ruff, openapi-python-client) and node on PATH, no
    telemetry or update checks (the network here is the package registries only)."""
    node = shutil.which("node")
    path = [str(VENV_BIN), *([str(Path(node).parent)] if node else []), "/usr/bin", "/bin"]
    env = {
        "PATH": ":".join(path),
        "HOME": str(cwd),
        "NO_COLOR": "1",
        "REDOCLY_TELEMETRY": "off",
        "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
        # Every JVM the tools start (openapi-generator, javac, the generated Java client's
        # program) runs for seconds: the first JIT tier only and one GC thread start and
        # finish sooner (the Java client's generation 20.5 → 6.9 s, its javac 34.1 → 16.3 s,
        # docs/changes.md). Each JVM says on stderr that it picked these up.
        "JAVA_TOOL_OPTIONS": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
    }
    return subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def imported(where: Path, package: str) -> Iterator[ModuleType]:
    """A generated package of ``where``, imported for a fixture to yield; forgotten again
    afterwards (``sys.path`` and ``sys.modules``), so the next generated client starts clean."""
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
