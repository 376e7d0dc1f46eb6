"""Issue 14 item 14: the server's dependencies admit no release with a known
advisory, and ``requirements.lock`` (what CI and a server install) pins the
whole tree at versions inside those floors.

The advisories (published facts, the first fixed release of each):
Starlette 0.40.0 (CVE-2024-47874, multipart form DoS), 0.47.2
(CVE-2025-54121, a large upload blocks the event loop), 0.49.1
(CVE-2025-62727, Range header DoS); python-multipart 0.0.18
(CVE-2024-53981, form-parsing DoS); h11 0.16.0 (CVE-2025-43859, request
smuggling); Jinja2 3.1.6 (CVE-2025-27516, sandbox escape)."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]

FIXED = {"starlette": "0.49.1", "python-multipart": "0.0.18", "h11": "0.16.0",
         "jinja2": "3.1.6"}
"""Package -> the first release without the known advisories above."""


def floors() -> dict[str, Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    reqs = [Requirement(r) for r in data["project"]["dependencies"]]
    return {r.name.lower(): r for r in reqs}


def pins() -> dict[str, Version]:
    out: dict[str, Version] = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s#;]+)", line)
        if m:
            out[m.group(1).lower()] = Version(m.group(2))
    return out


@pytest.mark.parametrize("name", sorted(FIXED))
def test_the_floor_admits_no_release_with_the_advisory(name: str) -> None:
    req = floors()[name]
    fixed = Version(FIXED[name])
    below = Version(f"{fixed.major}.{fixed.minor}.{max(fixed.micro - 1, 0)}")
    if below == fixed:  # x.y.0: the last release of the previous minor
        below = Version(f"{fixed.major}.{fixed.minor - 1}.99")
    assert fixed in req.specifier, f"{name}: the fixed release {fixed} is refused"
    assert below not in req.specifier, f"{name}: {req} admits {below}, before the fix"


def test_the_lock_pins_every_dependency_inside_its_floor() -> None:
    locked = pins()
    for name, req in floors().items():
        assert name in locked, f"{name} is not pinned in requirements.lock"
        assert locked[name] in req.specifier, f"requirements.lock: {name}=={locked[name]} " \
                                              f"is outside {req}"
    for name, fixed in FIXED.items():
        assert locked[name] >= Version(fixed)


def test_the_installed_versions_are_past_the_fixes() -> None:
    for name, fixed in FIXED.items():
        assert Version(version(name)) >= Version(fixed), name


def test_ci_installs_from_the_lock() -> None:
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert "-r requirements.lock" in script
