"""The examples in the Xiangqi modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import qisai.xiangqi

MODULES = sorted(["qisai.xiangqi"] + [f"qisai.xiangqi.{m.name}" for m in pkgutil.iter_modules(qisai.xiangqi.__path__)])


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
