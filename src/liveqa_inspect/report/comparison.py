"""Several logs in one report: which answers they share (the table's keys, never sample ids), every
setting in which they differ (checked once here, said before any table that compares them and on
the judge card alike), their row labels, and each log's paired difference from the first."""

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import liveqa_inspect
from liveqa_inspect._inspect_private import MODEL_NONE
from liveqa_inspect.arguments import parameters
from liveqa_inspect.report.graded import Item, Key, paired
from liveqa_inspect.report.loaded import LoadedLog, Logs
from liveqa_inspect.report.tables import Block, Cell, Table, figure_cell, value_ci
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import juror_names

NOT_SETTINGS = ("question", "part", "aspect", "split", "subset", "data", "judgments", "panel")
NOT_SETTINGS += ("judge_cache", "reference_metrics")
"""Task arguments not compared as such: the items' (`setting`), files (compared by contents),
the panel rule (the judge's), a cache and more scorers (no score moves)."""
AS_WRITTEN = "as written"
Pairs = Sequence[tuple[Item, Item]]
Beside = Callable[[Pairs], Mapping[str, Estimate]]
"""Figures of two logs' paired items, shown beside their difference."""


def judge_line(log: LoadedLog) -> str:
    """Who was measured (the grader role when bound, else the evaluated model), on which prompt."""
    also = f"; evaluated model: {log.model}" if log.model != MODEL_NONE else ""
    judged = "the evaluated model" if log.judge_label == log.model else f"the grader role{also}"
    return f"judge: {log.judge_label} ({judged}); prompt: {log.prompt_label}"


def judge_differences(logs: Logs) -> dict[str, list[str]]:
    """The settings each judge's logs differ in: one judge at two temperatures is two judges."""
    found = {}
    for judge in dict.fromkeys(log.judge_label for log in logs):
        mine = [log.judge_settings for log in logs if log.judge_label == judge]
        keys = dict.fromkeys(key for each in mine for key in each)
        found[judge] = [key for key in keys if len({e.get(key, "unset") for e in mine}) > 1]
    return found


def judge_labels(logs: Logs) -> list[str]:
    """Each log's judge, with its values of the settings its judge's logs differ in."""
    differ, found = judge_differences(logs), []
    for log in logs:
        shown = [f"{k}={log.judge_settings.get(k, 'unset')}" for k in differ[log.judge_label]]
        found.append(log.judge_label + (f" ({', '.join(shown)})" if shown else ""))
    return found


def answers(log: LoadedLog) -> frozenset[str]:
    return frozenset(item.answer for item in log.items)


def same_answers(logs: Logs) -> bool:
    """Whether model logs hold one run's answers, each graded again (`inspect score` on copies of
    a `--no-score` log), by another judge or by the same one (a test-retest): what differs
    between them is the grading, not the model."""
    return logs[0].section.kind == "model" and len(logs) > 1 and len(set(map(answers, logs))) == 1


def judged(logs: Logs) -> bool:
    """Whether the rows are judges: of judge logs, or of the same answers graded again."""
    return logs[0].section.judged or same_answers(logs)


def labels(logs: Logs) -> list[str]:
    """A unique row label for each log (`#2` on a true repeat): its judge where the rows are
    judges, else its model; in a comparison its section makes on purpose, the section's."""
    if purpose := logs[0].section.compared(logs):
        return purpose[0]
    return juror_names(judge_labels(logs) if judged(logs) else [log.model for log in logs])


def own_questions(log: LoadedLog) -> str | None:
    """A section's `setting` of a log of an own question set: its questions are asked as written,
    whatever a task argument says of the wording."""
    return f"questions: {log.own_set}, asked {AS_WRITTEN}" if log.own_set else None


def settings(log: LoadedLog) -> dict[str, str]:
    """Every setting that changes a score, as a warning names it, the section's own last."""
    spec = log.log.eval
    config = log.log.plan.config.merge(spec.model_generate_config).model_dump(exclude_none=True)
    items, own = log.section.setting(log), log.own_set
    if own:  # known by its sha256, whatever its file's name
        items = items.replace(str(own), str(own).removeprefix(f"{own.filename}: "))
    found = {"task": log.task, log.section.items: items}
    # Its own arguments: a -T name another task of an eval set takes reaches it too, unread.
    takes = set(parameters(getattr(liveqa_inspect, log.task))) - set(NOT_SETTINGS)
    found |= {f"-T {k}=": str(v) for k, v in spec.task_args.items() if k in takes}
    found |= {
        "judge": " | ".join(sorted(judge.name for judge in log.judges)) or "none",
        "judge settings": ", ".join(f"{k}={v}" for k, v in log.judge_settings.items()),
        "judge prompt": log.prompt_label,
        "epochs": str(log.epochs),
        "epoch reducer": ", ".join(spec.config.epochs_reducer or ["the task's"]),
        "generation settings": ", ".join(f"{k}={v}" for k, v in config.items()) or "none",
        # Files compared by their contents: one set under two names is one set.
        "data": ", ".join(f"sha256 {str(f.get('sha256'))[:12]}" for f in log.data.values()),
    }
    return found | log.section.settings(log)


def differing_settings(logs: Logs) -> dict[str, list[str]]:
    """Each setting not the same in every log, with each log's value, whatever the report kind;
    not what the rows compare (the judges and their settings, where the rows are judges)."""
    each = [settings(log) for log in logs]
    names = dict.fromkeys(name for found in each for name in found)
    values = {name: [found.get(name, "none") for found in each] for name in names}
    compared = ("judge", "judge settings") if judged(logs) else ()
    compared += ("generation settings",) * logs[0].section.judged
    return {n: v for n, v in values.items() if len(set(v)) > 1 and n not in compared}


def warnings(logs: Logs) -> list[str]:
    """A WARNING for each setting the logs differ in (else the section's own comparison's notes),
    for the answers not all share, for judge logs putting other human levels on an answer."""
    if purpose := logs[0].section.compared(logs):
        return purpose[1]
    found = [graded_again(logs)] if same_answers(logs) else []
    # What one judge's logs differ in is what its rows compare, not a reason to distrust them.
    for judge, keys in judge_differences(logs).items() if judged(logs) else []:
        mine = [log for log in logs if log.judge_label == judge]
        for key in keys:
            listed = "; ".join(f"{g.path.name}: {g.judge_settings.get(key, 'unset')}" for g in mine)
            found.append(
                f"{judge}'s settings differ in {key} ({listed}): each row is labelled with its own."
            )
    for n, values in differing_settings(logs).items():
        listed = "; ".join(map("{0.path.name}: {1}".format, logs, values))
        found += [f"WARNING: the logs differ in {n} ({listed}): their scores are not comparable."]
    every = len(shared(logs))
    if judged(logs) and len(logs) > 1 and every < max(log.scored for log in logs):
        counts = ", ".join(map("{0} {1.scored}".format, labels(logs), logs))
        found.append(
            f"note: the judges scored other answers ({counts}); {every} were scored by every "
            "judge: a figure ranked or compared across judges is over those alone."
        )
    differ = [  # judge logs putting other human levels on an answer both hold
        log.path.name
        for log in logs[1:]
        if log.section.judged
        and any(a.human != b.human for a, b in paired(logs[0].items, log.items, "answer"))
    ]
    if differ:
        found.append(
            f"WARNING: {', '.join(differ)} put other human levels than {logs[0].path.name} "
            "on the same answers: their agreement figures are not comparable."
        )
    return found


def graded_again(logs: Logs) -> str:
    """What a comparison of the same answers compares: other judges, or one judge's gradings (a
    test-retest: the figure of how far a judge repeats itself)."""
    whose = f"{logs[0].model}'s ({logs[0].section.setting(logs[0])})"
    judges = Counter(log.judge_label for log in logs)
    if not (repeated := ", ".join(judge for judge, n in judges.items() if n > 1)):
        return f"Judges on the same answers: {whose}, each log graded by another judge."
    return (
        f"The same answers graded again by the same judge ({repeated}): {whose}. A test-retest "
        "of the judge: the kappa and exact agreement between its gradings say how far it repeats "
        "its own levels (a reply read from Inspect's cache repeats the earlier grading's)."
    )


def shared(logs: Logs) -> list[str]:
    """The keys every log scored, in the first log's order: what a ranking is over."""
    on: Key = "answer" if judged(logs) else "question"  # judges' answers, models' questions
    keys = [{i.key(on) for i in log.scored_items()} for log in logs]
    return [i.key(on) for i in logs[0].items if all(i.key(on) in found for found in keys)]


def per_log(
    logs: Logs, title: str, headers: Sequence[str], cells: Callable[..., list[Cell]]
) -> Table:
    """A row per log: its label, its `cells`, its counts (errored and missing where any has one)."""
    counts = ["scored", "unscored"]
    counts += [count for count in ("errored", "missing") if any(g.counts[count] for g in logs)]
    named = zip(labels(logs), logs, strict=True)
    rows = [[name, *cells(log), *(log.counts[count] for count in counts)] for name, log in named]
    return Table(title, ["judge" if judged(logs) else "model", *headers, *counts], rows)


def difference_table(
    logs: Logs, difference: Callable[[Pairs], Estimate], figure: str, beside: Beside | None = None
) -> Table:
    """Each later log's `difference` from the first over the items both scored (paired on the
    answers of judges, the questions of models), and `beside` it, figures of the pairs."""
    names, rows, figures = labels(logs), [], {}
    noun, on = ("judge", "answer") if judged(logs) else ("model", "question")
    for name, log in zip(names[1:], logs[1:], strict=True):
        pairs = paired(logs[0].items, log.items, on)
        estimate, figures = difference(pairs), beside(pairs) if beside else {}
        rows.append([name, *value_ci(estimate), *map(figure_cell, figures.values()), estimate.n])
    over = f"the {on}s both scored"
    title = f"{figure.capitalize()} from {names[0]} (paired bootstrap 95% CI over {over})"
    return Table(title, [noun, figure, "95% CI", *figures, "shared"], rows)


def comparison(logs: Logs, noun: str, *tables: Table, notes: Sequence[str] = ()) -> list[Block]:
    """The logs numbered, then the warnings and notes before the tables they qualify; a note says
    when a log does not hold the first's answers (or questions): its difference is over those."""
    differences = len(tables) > 1
    compared = ", compared with the first:" if differences else " side by side:"
    blocks: list[Block] = [f"{len(logs)} {noun} logs{compared}"]
    named = enumerate(zip(labels(logs), logs, strict=True), start=1)
    blocks += [f"{n}. {log.path} ({name})" for n, (name, log) in named]
    blocks += warnings(logs)
    on: Key = "answer" if judged(logs) else "question"
    first = {item.key(on) for item in logs[0].items}
    for log in logs[1:] if differences else []:
        if (keys := {item.key(on) for item in log.items}) != first:
            blocks.append(
                f"note: {log.path.name} shares {len(first & keys)} of its {len(keys)} {on}s "
                f"with {logs[0].path.name} ({len(first)}); its difference is over the shared ones."
            )
    return [*blocks, *notes, *tables]


def figure_name(logs: Logs, figure: str) -> str:
    """A comparison's figure file: its first log's name and a digest of every log it compares, in
    order: two comparisons sharing a first log never write one file, the second over the first."""
    compared = "\n".join(str(log.path.resolve()) for log in logs).encode()
    return f"{logs[0].path.stem}-{figure}-{hashlib.sha256(compared).hexdigest()[:12]}.png"
