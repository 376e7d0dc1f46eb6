"""The manual comes with the package (issue 32 item 1): right after an
editable install (``pip install -e .``) and after installing a wheel, in
fresh virtual environments, ``qisai serve`` answers 200 at ``/manual``.

The wheels are made by the project's own build backend
(``buildsys/qisai_backend.py``, the hooks pip calls) from a copy of the
source tree, in this interpreter (it has the build requirements: setuptools,
MkDocs, Material, jieba, OpenCC); pip then installs them with ``--no-deps
--no-index`` into virtual environments that see this interpreter's packages
(``--system-site-packages``), so nothing is fetched from the network.  The
wheel's environment runs with the source copy deleted: the manual it serves
is the one inside the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.web.conftest import free_port

pytestmark = pytest.mark.slow
pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("material", reason="mkdocs-material is not installed (pip install -e '.[docs]')")
pytest.importorskip("opencc", reason="opencc is not installed (pip install -e '.[docs]')")
pytest.importorskip("jieba", reason="jieba is not installed (pip install -e '.[docs]')")

ROOT = Path(__file__).resolve().parents[2]
STEP_TIMEOUT = 300  # seconds for one build or install (a busy 2-core machine)


def _can_build_wheels() -> str | None:
    """Why this interpreter cannot build wheels (setuptools before 70.1 needs
    the ``wheel`` package), or None."""
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    if (major, minor) >= (70, 1):
        return None
    try:
        import wheel  # noqa: F401
    except ImportError:
        return (f"setuptools {setuptools.__version__} needs the wheel package to build "
                "wheels (pip install -e '.[test]' brings setuptools>=78.1.1)")
    return None


def _copy_sources(dest: Path) -> Path:
    """Copy the source tree without what a build leaves behind."""
    ignore = shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", "dist",
                                    ".mypy_cache", ".ruff_cache", ".pytest_cache",
                                    ".hypothesis", "mutants", "artifacts", "site")
    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


def _env() -> dict[str, str]:
    """The environment without what would point qisai elsewhere."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "QISAI_MANUAL_DIR", "QISAI_DATABASE_URL", "QISAI_BUILD_MANUAL",
                 "VIRTUAL_ENV"):
        env.pop(name, None)
    return env


def _run(cmd: list[str], cwd: Path | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=STEP_TIMEOUT)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def _backend(src: Path, hook: str, out: Path) -> Path:
    """Call the build backend's ``hook`` as pip does; the wheel it made."""
    out.mkdir(parents=True, exist_ok=True)
    code = ("import sys; sys.path.insert(0, 'buildsys'); import qisai_backend as b; "
            f"print(b.{hook}({str(out)!r}))")
    name = _run([sys.executable, "-c", code], cwd=src).strip().splitlines()[-1]
    return out / name


def _venv_with(wheel: Path, folder: Path) -> Path:
    """A virtual environment that sees this interpreter's packages, with
    ``wheel`` installed into it (no dependencies, no index); its python."""
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(folder)
    python = folder / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
          str(wheel)])
    return python


@contextmanager
def _serve(python: Path, data: Path) -> Iterator[str]:
    """``qisai serve`` of the environment of ``python`` (its own console
    script); the base URL."""
    port = free_port()
    env = _env() | {"QISAI_DATA_DIR": str(data)}
    proc = subprocess.Popen([str(python.parent / "qisai"), "serve", "--port", str(port),
                             "--log-level", "warning"], env=env, cwd=data.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr and proc.poll() is not None else ""
                raise AssertionError(f"qisai serve did not start\n{err[-3000:]}")
            time.sleep(0.2)
        yield base
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _check_manual(base: str) -> None:
    for path, words in (("/manual/", "手册"), ("/manual/zh/index.html", "使用手册"),
                        ("/manual/zh-Hant/index.html", "使用手冊"),
                        ("/manual/en/index.html", "qisai manual"),
                        ("/manual/zh/rules/xiangqi.html", 'id="c-23-3"')):
        r = httpx.get(base + path, timeout=30, follow_redirects=True)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])
        assert words in r.text, (path, words)


def _where(python: Path) -> Path:
    """Where the environment's qisai is (run outside any source tree: ``-c``
    puts the working folder first on the path)."""
    out = _run([str(python), "-c", "import qisai.web.manual as m; print(m.__file__)"],
               cwd=python.parents[2])
    return Path(out.strip())


def test_manual_is_served_after_an_editable_install_and_from_a_wheel(tmp_path: Path) -> None:
    if (why := _can_build_wheels()) is not None:
        pytest.skip(why)
    src = _copy_sources(tmp_path / "src")
    assert not (src / "qisai" / "web" / "manual" / "site").exists()

    # pip install -e . : the backend builds the manual into the source tree.
    editable = _backend(src, "build_editable", tmp_path / "dist-e")
    python = _venv_with(editable, tmp_path / "venv-e")
    assert _where(python).is_relative_to(src), _where(python)  # not another qisai
    assert (src / "qisai" / "web" / "manual" / "site" / "zh" / "index.html").is_file()
    with _serve(python, tmp_path / "data-e") as base:
        _check_manual(base)

    # A wheel made from a clean tree carries the manual it built; installed
    # with the sources gone, it serves it.
    shutil.rmtree(src / "qisai" / "web" / "manual" / "site")
    wheel = _backend(src, "build_wheel", tmp_path / "dist")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert "qisai/web/manual/site/zh-Hant/search/search_index.json" in names
    shutil.rmtree(src)
    python = _venv_with(wheel, tmp_path / "venv-w")
    assert _where(python).is_relative_to(tmp_path / "venv-w"), _where(python)
    with _serve(python, tmp_path / "data-w") as base:
        _check_manual(base)


def test_build_command_prints_no_runtime_warning(tmp_path: Path) -> None:
    """``python -m qisai.web.manual`` runs its own module (``__main__``), not
    one the package imported first (runpy's RuntimeWarning, issue 32 item 1)."""
    env = _env() | {"PYTHONPATH": str(ROOT), "QISAI_MANUAL_DIR": str(tmp_path / "m")}
    proc = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-m",
                           "qisai.web.manual", "where"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "RuntimeWarning" not in proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "m")
