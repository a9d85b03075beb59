"""Several logs in one report: every setting in which they differ, said before any table that
compares them; their row labels; and each log's paired difference from the first."""

import hashlib
from collections.abc import Callable, Mapping, Sequence

from pydantic import BaseModel

from liveqa_inspect._inspect_private import MODEL_NONE
from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.report.judge_settings import (
    judge_settings_differing,
    verdict_settings,
    with_settings,
)
from liveqa_inspect.report.loaded import LoadedLog, judge_name
from liveqa_inspect.report.tables import Block, Cell, Table, figure_cell, value_ci
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import juror_names

ITEMS = "questions or items (-T question=, aspect=, split=, subset=)"
NOT_SETTINGS = ("question", "part", "aspect", "split", "subset", "data", "judgments", "panel")
NOT_SETTINGS += ("judge_cache", "reference_metrics")
"""Task arguments not compared as such: the items' (`setting`), files (compared by contents),
the panel rule (the judge's), a cache and more scorers (no score moves)."""
Logs = Sequence[LoadedLog]
AS_WRITTEN = "as written"
Compared = tuple[list[str], list[str]]
"""The row labels and the notes of a comparison a section makes on purpose."""


def judge_line(log: LoadedLog) -> str:
    """Who was measured (the grader role when bound, else the evaluated model), on which prompt."""
    judged = "the grader role"
    if log.judge_label == log.model:
        judged = "the evaluated model"
    elif log.model != MODEL_NONE:
        judged += f"; evaluated model: {log.model}"
    return f"judge: {log.judge_label} ({judged}); prompt: {log.prompt_label}"


def labels(logs: Logs) -> list[str]:
    """A unique row label for each log (`#2`, `#3` on repeats): of a log measuring a judge, or of
    the same answers graded again, the judge and the settings it graded with where they differ
    from its other logs'; else the model; in a comparison its section makes on purpose, the
    section's."""
    if purpose := on_purpose(logs):
        return purpose[0]
    if same_answers(logs):
        return juror_names(map(with_settings, logs, judge_settings_differing(logs)))
    if logs[0].section.HUMAN_LEVELS:
        return juror_names(
            map(with_settings, logs, judge_settings_differing(logs, verdict_settings))
        )
    return juror_names(log.model for log in logs)


def same_answers(logs: Logs) -> bool:
    """Whether model logs hold one run's answers, each graded again (`inspect score` on copies of
    a `--no-score` log), by another judge or by the same one (a test-retest of the judge, at the
    same settings or others): what differs between them is the judge's grading, not the model."""
    runs = {(log.task, log.model) for log in logs}
    if logs[0].kind != "model" or len(runs) > 1 or len(logs) < 2:
        return False
    answers = [
        {(s.id, s.epoch): (s.input, s.output.completion) for s in log.log.samples or []}
        for log in logs
    ]
    return all(found == answers[0] for found in answers)


def own_questions(log: LoadedLog) -> str | None:
    """A section's `setting` of a log of an own question set: its questions are asked as written,
    whatever a task argument says of the wording."""
    own = OwnSet.of_log(log.log.eval.metadata)
    return f"questions: {own}, asked {AS_WRITTEN}" if own else None


def shown(config: BaseModel) -> str:
    return ", ".join(f"{k}={v}" for k, v in config.model_dump(exclude_none=True).items()) or "none"


def settings(log: LoadedLog) -> dict[str, str]:
    """Every setting that changes a score, as a warning names it, the section's own last. The
    subject (the model, or a judge log's judge) is what a comparison compares, not a setting."""
    spec = log.log.eval
    role = (spec.model_roles or {}).get((spec.metadata or {}).get("judge_role", ""), [])
    found = {"task": log.task}
    found[getattr(log.section, "ITEMS", ITEMS)] = log.section.setting(log)
    found |= {f"-T {k}=": str(v) for k, v in spec.task_args.items() if k not in NOT_SETTINGS}
    if log.judges and not log.section.HUMAN_LEVELS:  # a panel in another order is the same
        judges = sorted(judge_name((rule, tuple(sorted(m)))) for rule, m in log.judges)
        found["judge"] = " | ".join(judges)
    found["judge prompt"] = log.prompt_label
    found["epochs"] = str(log.epochs)
    found["epoch reducer"] = ", ".join(spec.config.epochs_reducer or ["the task's"])
    found["generation settings"] = shown(log.log.plan.config.merge(spec.model_generate_config))
    roles = [model.config for model in (role if isinstance(role, list) else [role])]
    found["judge generation settings"] = "; ".join(dict.fromkeys(map(shown, roles))) or "none"
    files = ((spec.metadata or {}).get("data") or {}).items()
    found["data"] = ", ".join(f"{name} (sha256 {str(f.get('sha256'))[:12]})" for name, f in files)
    return found | getattr(log.section, "settings", lambda _: {})(log)


def differing_settings(logs: Logs) -> dict[str, list[str]]:
    """Each setting not the same in every log, with each log's value, whatever the report kind."""
    each = [settings(log) for log in logs]
    names = dict.fromkeys(name for found in each for name in found)
    values = {name: [found.get(name, "none") for found in each] for name in names}
    return {name: given for name, given in values.items() if len(set(given)) > 1}


def on_purpose(logs: Logs) -> Compared | None:
    """The section's own comparison, if the logs make one (`compared`): what would otherwise be
    a mismatch of settings is what they compare (one model's runs on two question wordings)."""
    compared = getattr(logs[0].section, "compared", None)
    return compared(logs) if compared else None


def warnings(logs: Logs) -> list[str]:
    """A WARNING line for each setting the logs differ in (else the notes of the section's own
    comparison), and for judge logs putting other human levels on an answer."""
    if purpose := on_purpose(logs):
        return purpose[1]
    found, differing = [], differing_settings(logs)
    if same_answers(logs):  # the judge and its settings are what they compare
        differing.pop("judge", None)
        differing.pop("judge generation settings", None)
        found += graded_again(logs)
    elif logs[0].section.HUMAN_LEVELS:  # so are the measured judges and their settings
        differing.pop("generation settings", None)
        differing.pop("judge generation settings", None)
        found += settings_named(logs, judge_settings_differing(logs, verdict_settings))
    for name, values in differing.items():
        listed = "; ".join(map("{0.path.name}: {1}".format, logs, values))
        found.append(
            f"WARNING: the logs differ in {name} ({listed}): their scores are not comparable."
        )
    if other := [log.path.name for log in logs[1:] if humans_differ(logs[0], log)]:
        found.append(
            f"WARNING: {', '.join(other)} put other human levels than {logs[0].path.name} "
            "on the same answers: their agreement figures are not comparable."
        )
    return found


def graded_again(logs: Logs) -> list[str]:
    """What a comparison of the same answers compares: other judges, or one judge's gradings (a
    test-retest: the figure of how far a judge repeats itself), and the judge settings that
    differ, each named: they are what the rows compare, not a reason to distrust them."""
    judges = [log.judge_label for log in logs]
    whose = f"{logs[0].model}'s ({logs[0].section.setting(logs[0])})"
    repeated = ", ".join(dict.fromkeys(judge for judge in judges if judges.count(judge) > 1))
    found = [
        f"The same answers graded again by the same judge ({repeated}): {whose}. A test-retest "
        "of the judge: the kappa and exact agreement between its gradings say how far it repeats "
        "its own levels (a reply read from Inspect's cache repeats the earlier grading's)."
        if repeated
        else f"Judges on the same answers: {whose}, each log graded by another judge."
    ]
    return found + settings_named(logs, judge_settings_differing(logs))


def settings_named(logs: Logs, differing: Sequence[Mapping[str, str]]) -> list[str]:
    """Each setting one judge's logs differ in, named: what its rows compare, not a reason to
    distrust them."""
    differ = list(zip(logs, differing, strict=True))
    found = []
    for judge, key in dict.fromkeys((log.judge_label, k) for log, each in differ for k in each):
        given = [(log, each) for log, each in differ if log.judge_label == judge]
        listed = "; ".join(f"{log.path.name}: {each[key]}" for log, each in given)
        found.append(
            f"{judge}'s settings differ in {key} ({listed}): each row is labelled with its own."
        )
    return found


def humans_differ(first: LoadedLog, other: LoadedLog) -> bool:
    """Whether a judge log puts other human levels than the first on an answer both hold."""
    shared = first.metadata.keys() & other.metadata.keys() if other.section.HUMAN_LEVELS else ()
    return any(first.metadata[i]["human_level"] != other.metadata[i]["human_level"] for i in shared)


def row_noun(logs: Logs) -> str:
    return "judge" if logs[0].section.HUMAN_LEVELS or same_answers(logs) else "model"


def per_log(
    logs: Logs, title: str, headers: Sequence[str], cells: Callable[..., list[Cell]]
) -> Table:
    """A row per log: its label, its `cells`, its counts (errored and missing where any has one)."""
    counts = ["scored", "unscored"]
    counts += [count for count in ("errored", "missing") if any(getattr(g, count) for g in logs)]
    named = zip(labels(logs), logs, strict=True)
    rows = [[name, *cells(log), *(getattr(log, count) for count in counts)] for name, log in named]
    return Table(title, [row_noun(logs), *headers, *counts], rows)


def difference_table(
    logs: Logs,
    difference: Callable[..., Estimate],
    figure: str,
    over: str,
    beside: Callable[..., dict[str, Estimate]] | None = None,
) -> Table:
    """Each later log's `difference` from the first over the items both hold (`over`), and `beside`
    it, figures of the two (judges' agreement with each other)."""
    names, rows, figures = labels(logs), [], {}
    for name, log in zip(names[1:], logs[1:], strict=True):
        estimate, figures = difference(logs[0], log), beside(logs[0], log) if beside else {}
        rows.append([name, *value_ci(estimate), *map(figure_cell, figures.values()), estimate.n])
    title = f"{figure.capitalize()} from {names[0]} (paired bootstrap 95% CI over {over})"
    return Table(title, [row_noun(logs), figure, "95% CI", *figures, "shared"], rows)


def comparison(logs: Logs, noun: str, *tables: Table, notes: Sequence[str] = ()) -> list[Block]:
    """The logs numbered, then the warnings and notes before the tables they qualify; the tables
    after the first, if any, are each log's differences from the first, so a note says when a log
    does not hold the first's sample ids, as its difference is over the shared ones."""
    differences = len(tables) > 1
    compared = ", compared with the first:" if differences else " side by side:"
    blocks: list[Block] = [f"{len(logs)} {noun} logs{compared}"]
    named = enumerate(zip(labels(logs), logs, strict=True), start=1)
    blocks += [f"{n}. {log.path} ({name})" for n, (name, log) in named]
    blocks += warnings(logs)
    first = set(logs[0].values)
    for log in logs[1:] if differences else []:
        if (ids := set(log.values)) != first:
            blocks.append(
                f"note: {log.path.name} shares {len(first & ids)} of its {len(ids)} samples with "
                f"{logs[0].path.name} ({len(first)}); its difference is over the shared ones."
            )
    return [*blocks, *notes, *tables]


def figure_name(logs: Logs, figure: str) -> str:
    """A comparison's figure file: its first log's name and a digest of every log it compares, in
    order: two comparisons sharing a first log never write one file, the second over the first."""
    compared = "\n".join(str(log.path.resolve()) for log in logs).encode()
    return f"{logs[0].path.stem}-{figure}-{hashlib.sha256(compared).hexdigest()[:12]}.png"
