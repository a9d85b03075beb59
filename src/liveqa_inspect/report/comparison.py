"""Several logs in one report: what makes their figures incomparable (said before any table that
compares them), their row labels, and each log's paired difference from the first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from liveqa_inspect.report.loading import LoadedLog
from liveqa_inspect.report.stats import Estimate
from liveqa_inspect.report.tables import Block, Cell, Table, interval
from liveqa_inspect.stats.names import juror_names
from liveqa_inspect.tasks.live_qa.own_set import OwnSet
from liveqa_inspect.tasks.live_qa_judge.dataset import humans_differ

JUDGE_KINDS = ("judge", "robustness")


def subject(log: LoadedLog) -> str:
    """What a log stands for in a comparison: the judge of a log measuring one, else the model."""
    return log.judge_label if log.kind in JUDGE_KINDS else log.model


def judge_line(log: LoadedLog) -> str:
    """Who was measured, on which prompt: the grader role when bound, else the evaluated model."""
    judged = (
        "the evaluated model"
        if log.judge_label == log.model
        else f"the grader role; evaluated model: {log.model}"
    )
    return f"judge: {log.judge_label} ({judged}); prompt: {log.prompt_label}"


def row_noun(logs: Sequence[LoadedLog]) -> str:
    """What a table's rows are, as `labels` names them: judges, or the kind of log."""
    return "judge" if logs[0].kind in JUDGE_KINDS else logs[0].kind


def labels(logs: Sequence[LoadedLog]) -> list[str]:
    """A unique row label for each log: its subject, `#2`, `#3` on repeats (one model under two
    judges); in a wording comparison, the model and its wording."""
    if wording_only(logs):
        return juror_names(f"{log.model} ({wording(log)})" for log in logs)
    return juror_names(subject(log) for log in logs)


def wording(log: LoadedLog) -> str:
    return str(log.log.eval.task_args.get("question", "summary"))


def setting(log: LoadedLog) -> str:
    """What the log's items were, beside the model and judge: LiveQA's question wording, the part
    a contamination probe showed, or ExpertQA's split and subset (and, for claims, the aspect)."""
    args, own = log.log.eval.task_args, OwnSet.of_log(log.log.eval.metadata)
    questions = f"questions: {own}; " if own else ""
    if log.kind == "contamination":
        return f"{questions}part: {args.get('part', 'question')}"
    if not log.task.startswith("expert_qa"):
        return f"{questions}question wording: {wording(log)}"
    split = f"split: {args.get('split', 'domain')} {args.get('subset', 'test')}"
    if log.task != "expert_qa_claims":
        return split
    return f"aspect: {args.get('aspect', 'correctness')}; {split}"


def jury(log: LoadedLog) -> str:
    """The log's judges as a set: a panel listed in another order is the same panel."""
    return " | ".join(sorted("+".join(sorted(models)) for models in log.judges)) or log.model


def wording_only(logs: Sequence[LoadedLog]) -> bool:
    """Whether the logs are one model's live_qa runs, graded alike, on different question
    wordings: ConStat's check of memorised wording (docs/contamination.md), not a mismatch."""
    alike = (lambda log: log.task, lambda log: log.model, jury, lambda log: log.prompt_label)
    return (
        logs[0].task == "live_qa"
        and all(len({same(log) for log in logs}) == 1 for same in alike)
        and len({wording(log) for log in logs}) > 1
    )


def wording_note(logs: Sequence[LoadedLog]) -> list[str]:
    if not wording_only(logs):
        return []
    wordings = ", ".join(dict.fromkeys(wording(log) for log in logs))
    return [
        f"A wording comparison: one model, graded alike, on the questions worded {wordings}. "
        "Each difference is paired question by question. A model that scores clearly lower on a "
        "paraphrase than on the consumers' original wording may have memorised the originals "
        "(ConStat); a wording can also be harder or easier in itself, so this is evidence, not "
        "proof (docs/contamination.md)."
    ]


def differing(logs: Sequence[LoadedLog], what: str, show: Callable[[LoadedLog], str]) -> list[str]:
    seen = [show(log) for log in logs]
    if len(set(seen)) < 2:
        return []
    listed = "; ".join(f"{log.path.name}: {value}" for log, value in zip(logs, seen, strict=True))
    return [f"WARNING: the logs differ in {what} ({listed}): their scores are not comparable."]


def warnings(logs: Sequence[LoadedLog]) -> list[str]:
    """One WARNING line for each way the logs were not graded alike: model logs must share the
    judge; judge logs differ in it by design, so theirs must share the human levels instead."""
    found = differing(logs, "task", lambda log: log.task)
    if not wording_only(logs):
        found += differing(
            logs, "questions or items (-T question=, aspect=, split=, subset=)", setting
        )
    found += differing(logs, "judge prompt", lambda log: log.prompt_label)
    if logs[0].kind == "model":
        found += differing(logs, "judge", jury)
    else:
        other = [log.path.name for log in logs[1:] if humans_differ(logs[0].metadata, log.metadata)]
        if other:
            found.append(
                f"WARNING: {', '.join(other)} put other human levels than {logs[0].path.name} "
                "on the same answers: their agreement figures are not comparable."
            )
    return found


def coverage(logs: Sequence[LoadedLog]) -> list[str]:
    """A note when the logs do not hold the same sample ids: differences use the shared ones."""
    first = set(logs[0].values)
    notes = []
    for log in logs[1:]:
        shared = len(first & set(log.values))
        if shared != len(first) or shared != len(log.values):
            notes.append(
                f"note: {log.path.name} shares {shared} of its {len(log.values)} samples with "
                f"{logs[0].path.name} ({len(first)}); its difference is over the shared ones."
            )
    return notes


def per_log(
    logs: Sequence[LoadedLog],
    title: str,
    headers: Sequence[str],
    cells: Callable[[LoadedLog], Sequence[Cell]],
) -> Table:
    """A table of a row per log: its label, its `cells`, and its scored and unscored counts."""
    rows = [
        [label, *cells(log), log.scored, log.unscored]
        for label, log in zip(labels(logs), logs, strict=True)
    ]
    return Table(title, [row_noun(logs), *headers, "scored", "unscored"], rows)


def difference_table(
    logs: Sequence[LoadedLog],
    difference: Callable[[LoadedLog, LoadedLog], Estimate],
    figure: str,
    over: str,
) -> Table:
    """Each later log's `difference` from the first over the items both hold (`over`), with its
    interval and shared count."""
    names = labels(logs)
    rows = []
    for label, log in zip(names[1:], logs[1:], strict=True):
        estimate = difference(logs[0], log)
        rows.append([label, estimate.value, interval(estimate.low, estimate.high), estimate.n])
    return Table(
        f"{figure.capitalize()} from {names[0]} (paired bootstrap 95% CI over {over})",
        [row_noun(logs), figure, "95% CI", "shared"],
        rows,
    )


def comparison(
    logs: Sequence[LoadedLog], noun: str, side_by_side: Table, differences: Table
) -> list[Block]:
    """The logs numbered, then the warnings and notes before the tables they qualify."""
    blocks: list[Block] = [f"{len(logs)} {noun} logs, compared with the first:"]
    blocks += [f"{n}. {log.path} ({subject(log)})" for n, log in enumerate(logs, start=1)]
    return [
        *blocks,
        *wording_note(logs),
        *warnings(logs),
        *coverage(logs),
        side_by_side,
        differences,
    ]
