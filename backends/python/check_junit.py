"""Reads a run's report.junit.xml with junitparser, as a CI service would, and checks it
against the report.json beside it: one testcase per trial, with the result its outcome calls
for, and the suite's counts. Exits 1 and says what differs otherwise.

Usage: python check_junit.py DIR   (a report directory, as target/onnx-conformance)
"""

import json
import sys
from pathlib import Path

from junitparser import Error, Failure, JUnitXml, Skipped


def xml_safe(text):
    """text as report.junit.xml must carry it: characters XML 1.0 forbids spelled \\u{hex}."""
    def allowed(c):
        o = ord(c)
        return c in "\t\n\r" or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or o >= 0x10000
    return "".join(c if allowed(c) else "\\u{%x}" % ord(c) for c in text)


def expected(trial):
    """(classname, name, result class, failure type) of a trial's testcase."""
    name = trial["name"]
    if trial.get("release") is not None and "/" in name:
        classname, case = name.rsplit("/", 1)
    else:
        classname, case = "setup", name
    outcome = trial["outcome"]
    if outcome == "pass":
        return classname, case, None, None
    # A data problem (harness/known-failures/data.json) and a case the runtime predates, as its
    # list expects, are skipped like a known failure.
    if outcome in ("known-failure", "data-problem", "predates"):
        return classname, case, Skipped, None
    if outcome == "unexpected-pass":
        return classname, case, Failure, "unexpected-pass"
    return classname, case, Failure, trial.get("failure_kind") or "fail"


def main(directory):
    directory = Path(directory)
    report = json.loads((directory / "report.json").read_text(encoding="utf-8"))
    xml = JUnitXml.fromfile(str(directory / "report.junit.xml"))
    suites = list(xml)
    problems = []
    if len(suites) != 1:
        problems.append(f"{len(suites)} testsuites, expected 1")
    cases = {}
    for suite in suites:
        for case in suite:
            key = (case.classname, case.name)
            if key in cases:
                problems.append(f"testcase {key} twice")
            cases[key] = case
    trials = report["trials"]
    if len(cases) != len(trials):
        problems.append(f"{len(cases)} testcases for {len(trials)} trials")
    counts = {"failures": 0, "skipped": 0}
    for trial in trials:
        classname, name, kind, failure_type = expected(trial)
        case = cases.get((classname, name))
        if case is None:
            problems.append(f"{trial['name']}: no testcase {classname} / {name}")
            continue
        results = list(case.result)
        if any(isinstance(r, Error) for r in results):
            problems.append(f"{trial['name']}: an <error>, expected none")
        if kind is None:
            if results:
                problems.append(f"{trial['name']}: passed, but the testcase has {results}")
            continue
        found = [r for r in results if isinstance(r, kind)]
        if len(found) != 1 or len(results) != 1:
            problems.append(f"{trial['name']}: {trial['outcome']}, but the testcase has {results}")
            continue
        counts["failures" if kind is Failure else "skipped"] += 1
        message = xml_safe(trial.get("message") or "")
        if (found[0].text or "") != message:
            problems.append(f"{trial['name']}: the element's text is not the trial's message")
        if kind is Failure and found[0].type != failure_type:
            problems.append(f"{trial['name']}: failure type {found[0].type!r}, expected {failure_type!r}")
    for suite in suites:
        if suite.tests != len(trials):
            problems.append(f"suite tests={suite.tests}, expected {len(trials)}")
        if suite.failures != counts["failures"] or suite.skipped != counts["skipped"]:
            problems.append(
                f"suite failures={suite.failures} skipped={suite.skipped}, expected {counts}"
            )
        backend = {p.name: p.value for p in suite.properties()}.get("backend.name")
        if backend != report["backend"]["name"]:
            problems.append(f"property backend.name={backend!r}, expected {report['backend']['name']!r}")
    for p in problems[:20]:
        print(f"check_junit: {p}", file=sys.stderr)
    if problems:
        print(f"check_junit: {directory}: {len(problems)} problems", file=sys.stderr)
        return 1
    print(f"check_junit: {directory}/report.junit.xml: {len(trials)} testcases as report.json says "
          f"({counts['failures']} failures, {counts['skipped']} skipped)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
