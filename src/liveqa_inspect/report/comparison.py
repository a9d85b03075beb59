"""Several logs in one report: every setting in which they differ, said before any table that
compares them; their row labels; and each log's paired difference from the first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel

from liveqa_inspect.report.loading import JUDGE_KINDS, LoadedLog, judge_name, section
from liveqa_inspect.report.tables import Block, Cell, Table, interval
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import juror_names

ITEMS = "questions or items (-T question=, aspect=, split=, subset=)"
NOT_SETTINGS = ("question", "part", "aspect", "split", "subset", "data", "judgments", "panel")
NOT_SETTINGS += ("judge_cache", "reference_metrics")
"""Task arguments not compared as such: the items' (`setting`), files (their contents are the
data, a judgments file's its human levels), the panel rule (the judge's, from its scores), and
two that change no score (a cache, more scorers)."""


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
    args = log.log.eval.task_args
    if log.kind == "contamination":
        return f"part: {args.get('part', 'question')}"
    if not log.task.startswith("expert_qa"):
        return f"question wording: {wording(log)}"
    split = f"split: {args.get('split', 'domain')} {args.get('subset', 'test')}"
    if log.task != "expert_qa_claims":
        return split
    return f"aspect: {args.get('aspect', 'correctness')}; {split}"


def shown(config: BaseModel) -> str:
    return ", ".join(f"{k}={v}" for k, v in config.model_dump(exclude_none=True).items()) or "none"


def data(log: LoadedLog) -> str:
    files = (log.log.eval.metadata or {}).get("data") or {}
    hashes = [f"{name} (sha256 {str(file.get('sha256'))[:12]})" for name, file in files.items()]
    return f"{log.log.eval.dataset.name}: {', '.join(hashes) or 'no files recorded'}"


def settings(log: LoadedLog) -> dict[str, str]:
    """Every setting that changes a score, under the name a warning gives it, the section's own
    last. The subject (the model, or a judge log's judge) is what is compared, not a setting."""
    spec = log.log.eval
    role = (spec.model_roles or {}).get((spec.metadata or {}).get("judge_role", ""), [])
    found = {"task": log.task}
    found["part probed (-T part=)" if log.kind == "contamination" else ITEMS] = setting(log)
    found |= {f"-T {k}=": str(v) for k, v in spec.task_args.items() if k not in NOT_SETTINGS}
    if log.kind not in JUDGE_KINDS:  # a panel listed in another order is the same panel
        judges = sorted(judge_name((rule, tuple(sorted(m)))) for rule, m in log.judges)
        found["judge"] = " | ".join(judges) or log.model
    found["judge prompt"] = log.prompt_label
    found["epochs"] = str(log.epochs)
    found["epoch reducer"] = ", ".join(spec.config.epochs_reducer or ["the task's"])
    found["generation settings"] = shown(log.log.plan.config.merge(spec.model_generate_config))
    roles = role if isinstance(role, list) else [role]
    found["the judge's generation settings"] = "; ".join({shown(r.config): 0 for r in roles}) or "none"
    found["data"] = data(log)
    return found | getattr(section(log.task), "settings", lambda _: {})(log)


def differing_settings(logs: Sequence[LoadedLog]) -> dict[str, list[str]]:
    """Each setting not the same in every log, with each log's value: what makes their figures
    incomparable, whatever the report kind."""
    each = [settings(log) for log in logs]
    found = {name: [s.get(name, "none") for s in each] for name in {n: 0 for s in each for n in s}}
    return {name: values for name, values in found.items() if len(set(values)) > 1}


def wording_only(logs: Sequence[LoadedLog]) -> bool:
    """Whether the logs are one model's live_qa runs that differ in the question wording alone:
    ConStat's check of memorised wording (docs/contamination.md), not a mismatch."""
    one_model = len({log.model for log in logs}) == 1
    return logs[0].task == "live_qa" and one_model and list(differing_settings(logs)) == [ITEMS]


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


def warnings(logs: Sequence[LoadedLog]) -> list[str]:
    """One WARNING line for each setting the logs differ in; logs measuring a judge differ in it by
    design, so theirs must also put the same human levels on the same answers."""
    if wording_only(logs):
        return []
    found = [
        f"WARNING: the logs differ in {name} ("
        + "; ".join(f"{log.path.name}: {value}" for log, value in zip(logs, values, strict=True))
        + "): their scores are not comparable."
        for name, values in differing_settings(logs).items()
    ]
    other = [log.path.name for log in logs[1:] if humans_differ(logs[0], log)]
    if other:
        found.append(
            f"WARNING: {', '.join(other)} put other human levels than {logs[0].path.name} "
            "on the same answers: their agreement figures are not comparable."
        )
    return found


def humans_differ(first: LoadedLog, other: LoadedLog) -> bool:
    """Whether two judge logs put other human levels on an answer both hold."""
    shared = first.metadata.keys() & other.metadata.keys() if first.kind in JUDGE_KINDS else ()
    return any(first.metadata[i]["human_level"] != other.metadata[i]["human_level"] for i in shared)


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


def row_noun(logs: Sequence[LoadedLog]) -> str:
    """What a table's rows are, as `labels` names them: judges, or the kind of log."""
    return "judge" if logs[0].kind in JUDGE_KINDS else logs[0].kind


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
    blocks += [*wording_note(logs), *warnings(logs), *coverage(logs)]
    return [*blocks, side_by_side, differences]
