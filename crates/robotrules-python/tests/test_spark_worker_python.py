"""Which Python the Spark job (`examples/spark/survey.py`) gives its workers, and the one line
it prints when the workers lack a package. No Spark needed: the choice is a pure function, and
the probe runs on a stand-in for the SparkContext.

A file apart from `test_spark_survey.py`, which is skipped as a whole without pyspark.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_JOB = Path(__file__).resolve().parents[3] / "examples" / "spark" / "survey.py"


def _job():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("spark_survey_job", _JOB)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_local_mode_workers_run_the_jobs_own_python() -> None:
    job = _job()
    assert job.worker_python("local[*]", {}) == sys.executable
    assert job.worker_python("local[2]", {"PATH": "/usr/bin"}) == sys.executable
    assert job.worker_python("local", {}) == sys.executable


def test_pyspark_python_and_clusters_are_left_alone() -> None:
    job = _job()
    assert job.worker_python("local[*]", {"PYSPARK_PYTHON": "/opt/py/bin/python"}) is None
    assert job.worker_python("yarn", {}) is None
    assert job.worker_python("spark://head:7077", {}) is None


class _Rdd:
    def __init__(self, result: tuple) -> None:
        self.result = result

    def map(self, _function):  # type: ignore[no-untyped-def]
        return self

    def first(self) -> tuple:
        return self.result


class _Context:
    def __init__(self, result: tuple) -> None:
        self.result = result

    def parallelize(self, _items, _slices):  # type: ignore[no-untyped-def]
        return _Rdd(self.result)


def test_a_missing_package_is_one_line_naming_the_interpreter() -> None:
    job = _job()
    line = job.missing_on_workers(_Context(("/usr/bin/python3", ["robotrules"])))
    assert line == (
        "the Spark workers' Python (/usr/bin/python3) cannot import robotrules: install it "
        "there, or set PYSPARK_PYTHON to a Python that has it"
    )
    assert "\n" not in line
    assert job.missing_on_workers(_Context((sys.executable, []))) is None


def test_the_probe_names_what_this_python_lacks() -> None:
    job = _job()
    python, missing = job._probe(0)
    assert python == sys.executable
    assert set(missing) <= set(job.WORKER_PACKAGES)
