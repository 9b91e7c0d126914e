"""The Python stack under the camera: where OpenCV, NumPy and picamera2 come from.

On the Pi they must be Raspberry Pi OS's own (apt), seen through a ``--system-site-packages``
venv: picamera2 and simplejpeg are built against the system's NumPy, and a pip wheel of
NumPy or OpenCV inside the venv breaks them. ``pi/install.sh`` runs ``python -m pi.stack
--pi`` to prove it after every install; ``kotd doctor`` shows the same facts.

``pip check`` must be clean for what the venv holds. A conflict among the system's own
packages (e.g. Debian's pygobject naming pycairo, which is only needed for its cairo part)
is reported as the system's, not ours: pip cannot fix it and installing nothing changes it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata as metadata
import re
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

SYSTEM_MODULES = ("cv2", "numpy")
"""What must come from the distribution on the Pi (never a wheel in the venv)."""
OPTIONAL_MODULES = ("picamera2", "gpiozero", "lgpio", "psutil")

_PIP_LINE = re.compile(
    r"^(?P<name>\S+) (?P<version>\S+) (?:requires (?P<missing>[^,]+), which is not installed"
    r"|has requirement (?P<req>.+), but you have (?P<have>\S+) (?P<have_version>\S+))\.?$")


@dataclass(frozen=True, slots=True)
class Module:
    """One module of the stack: its version and whether the venv or the system holds it."""

    name: str
    version: str | None   # None: not importable here
    path: str | None
    in_venv: bool

    def describe(self) -> str:
        if self.version is None:
            return f"{self.name}: not installed"
        where = "the venv (pip)" if self.in_venv else "the system"
        return f"{self.name} {self.version} from {where}"


@dataclass(frozen=True, slots=True)
class PipConflict:
    """One line of ``pip check`` and whether it concerns what the venv installed."""

    line: str
    ours: bool


def venv_dir() -> Path | None:
    """This interpreter's venv folder, or None when it runs outside a venv."""
    return Path(sys.prefix) if sys.prefix != sys.base_prefix else None


def _in_venv(path: str | None) -> bool:
    venv = venv_dir()
    return venv is not None and path is not None and Path(path).resolve().is_relative_to(
        venv.resolve())


def module(name: str) -> Module:
    """Import ``name`` and say which version it is and where it comes from."""
    try:
        mod = importlib.import_module(name)
    except Exception:  # a broken import (a NumPy ABI error) is "not usable" as well
        return Module(name, None, None, False)
    version = getattr(mod, "__version__", None)
    if version is None:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "?"
    path = getattr(mod, "__file__", None)
    return Module(name, str(version), path, _in_venv(path))


def _dist_in_venv(name: str) -> bool:
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return _in_venv(str(dist.locate_file("")))


def classify_pip_check(output: str) -> list[PipConflict]:
    """``pip check``'s lines, each marked ours when the venv holds either side of it."""
    conflicts = []
    for line in output.splitlines():
        line = line.strip()
        if not line or line.startswith("No broken requirements"):
            continue
        m = _PIP_LINE.match(line)
        if m is None:
            conflicts.append(PipConflict(line, ours=True))  # unknown shape: never hide it
            continue
        names = [m["name"]] + ([m["have"]] if m["have"] else [])
        conflicts.append(PipConflict(line, ours=any(_dist_in_venv(n) for n in names)))
    return conflicts


def pip_check() -> list[PipConflict]:
    """Run ``pip check`` for this interpreter and classify its complaints."""
    done = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True,
                          text=True, check=False)
    return classify_pip_check(done.stdout)


def pi_problems(modules: list[Module], conflicts: list[PipConflict]) -> list[str]:
    """What is wrong with this stack for a Raspberry Pi install (empty when all is well)."""
    problems = []
    if venv_dir() is None:
        problems.append("not running in a venv")
    else:
        cfg = venv_dir() / "pyvenv.cfg"  # type: ignore[operator]
        if "include-system-site-packages = true" not in cfg.read_text(encoding="utf-8"):
            problems.append(f"{cfg}: the venv does not see the system's packages "
                            "(make it with --system-site-packages)")
    for m in modules:
        if m.name in SYSTEM_MODULES and m.version is None:
            problems.append(f"{m.name} does not import (apt install python3-opencv "
                            "python3-numpy)")
        elif m.name in SYSTEM_MODULES and m.in_venv:
            problems.append(f"{m.name} {m.version} is a pip wheel in the venv ({m.path}); "
                            "it must be the system's: pip uninstall it")
    problems += [f"pip check: {c.line}" for c in conflicts if c.ours]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pi.stack", description=__doc__)
    parser.add_argument("--pi", action="store_true",
                        help="fail unless OpenCV and NumPy are the system's and pip check is "
                             "clean for the venv")
    args = parser.parse_args(argv)
    modules = [module(n) for n in (*SYSTEM_MODULES, *OPTIONAL_MODULES)]
    conflicts = pip_check()
    print(f"python {sys.version.split()[0]} at {sys.executable} "
          f"(venv {venv_dir() or 'none'}, site {sysconfig.get_paths()['purelib']})")
    for m in modules:
        print(f"  {m.describe()}")
    for c in conflicts:
        print(f"  pip check ({'ours' if c.ours else 'the system packages, not ours'}): "
              f"{c.line}")
    if not args.pi:
        return 0
    problems = pi_problems(modules, conflicts)
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    if not problems:
        print("  the camera stack is the system's and pip check is clean for the venv")
    return 1 if problems else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
