"""The one table every figure of the report reads: a row per answer a log's judge graded in each
epoch (`Grading`), and the answer as the log's metrics saw it, its epochs reduced (`Item`). An
answer is known by its question set, its question as shown and its text, never by its sample id
alone: two logs are joined on those keys, so a comparison pairs the same answers or nothing."""

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from inspect_ai.event import ModelEvent, SpanBeginEvent
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ModelUsage
from inspect_ai.scorer import SampleScore, Score

from liveqa_inspect.providers.gguf import MODEL_FILE
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate

SampleId = int | str
Status = Literal["scored", "unscored", "errored"]
Key = Literal["answer", "question"]
"""What two logs' items are paired on: the same answers (judges compared), or the same questions
(models compared, each with its own answers)."""
SCORER_SPAN = "scorer"  # the type of the span Inspect opens around each scorer, named after it
NO_GROUP = "none"


def digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Call:
    """One model event: `usage` is the call's own, also for a reply read from the cache."""

    role: str | None
    model: str
    usage: ModelUsage
    cached: bool
    judging: bool  # made while the headline scorer ran: the judge's call (a juror's, in a panel)
    served: str  # the model file a local provider answered from (its output's metadata), or ""


@dataclass(frozen=True)
class Grading:
    """One epoch of one answer: graded (scored or unscored, the judge asked) unless it errored."""

    sample: SampleId
    epoch: int
    answer: str
    level: float
    status: Status
    reason: str
    calls: tuple[Call, ...] = field(repr=False)


@dataclass(frozen=True)
class Item:
    """An answer as the log's metrics saw it: each scorer's score reduced over the epochs."""

    sample: SampleId
    question: str
    answer: str  # the key of the answers graded: one text in every epoch, or a digest of each's
    human: float
    value: float
    status: Status
    reason: str
    scores: Mapping[str, SampleScore] = field(repr=False)
    metadata: Mapping[str, Any] = field(repr=False)
    score: SampleScore | None = field(default=None, repr=False)  # the headline's (None: errored)

    def key(self, on: Key) -> str:
        return self.answer if on == "answer" else self.question


def calls(sample: EvalSample, scorer: str) -> tuple[Call, ...]:
    """Each model event, `judging` where a span of `scorer` holds it (a span begins after its
    parent's, so one pass over the events knows every span inside the scorer's)."""
    found, in_scorer = [], set[str]()
    for event in sample.events:
        if isinstance(event, SpanBeginEvent):
            if (event.type == SCORER_SPAN and event.name == scorer) or event.parent_id in in_scorer:
                in_scorer.add(event.id)
        elif isinstance(event, ModelEvent):
            usage, cached = event.output.usage or ModelUsage(), event.cache == "read"
            served = str((event.output.metadata or {}).get(MODEL_FILE, ""))
            judging = event.span_id in in_scorer
            found.append(Call(event.role, event.model, usage, cached, judging, served))
    return tuple(found)


def answer_of(sample: EvalSample, question_set: str) -> str:
    """The key of the answer graded: its question set, its question as shown, its text, and for
    a claim the answer it was drawn from (a judge sees it too)."""
    text, drawn_from = sample.output.completion, str((sample.metadata or {}).get("answer", ""))
    context = "" if drawn_from == text else drawn_from
    shown = sample.input if isinstance(sample.input, str) else [m.text for m in sample.input]
    return digest(question_set, *shown, context, text)


def graded_as(score: Score | None, value: Callable[[Any], float]) -> tuple[float, Status]:
    """A score's level and status: without a score, the answer errored."""
    level = math.nan if score is None else value(score.value)
    return level, "errored" if score is None else "unscored" if math.isnan(level) else "scored"


def gradings(
    log: EvalLog, scorer: str, question_set: str, value: Callable[[Any], float]
) -> list[Grading]:
    """A row an epoch of each sample, with why it went unscored (or errored)."""
    found = []
    for sample in log.samples or []:
        score = (sample.scores or {}).get(scorer)
        level, status = graded_as(score, value)
        reason = (score.reason or "no reason recorded") if status == "unscored" else ""
        if sample.error is not None:
            reason = sample.error.message.splitlines()[0] if sample.error.message else "errored"
        answer, made = answer_of(sample, question_set), calls(sample, scorer)
        found.append(Grading(sample.id, sample.epoch, answer, level, status, reason, made))
    return found


def items(
    log: EvalLog, scorer: str, question_set: str, value: Callable[[Any], float]
) -> tuple[list[Item], list[Grading]]:
    """One item a sample, in the log's order: each scorer's reduced score as Inspect handed it to
    the metrics; the first unscored epoch's reason (the reducer keeps none); then the gradings."""
    reduced = {r.scorer: {s.sample_id: s for s in r.samples} for r in log.reductions or []}
    epochs: dict[SampleId, list[Grading]] = {}
    for grading in (graded := gradings(log, scorer, question_set, value)):
        epochs.setdefault(grading.sample, []).append(grading)
    # In the order Inspect handed the metrics their scores (a bootstrap's draws depend on it),
    # then the samples with none; a score whose sample the log lost is no item.
    firsts = {sample.id: sample for sample in reversed(log.samples or [])}
    order = [*reduced.get(scorer, {}), *(sample.id for sample in log.samples or [])]
    found = []
    for sample_id in dict.fromkeys(i for i in order if i in firsts):
        meta = firsts[sample_id].metadata or {}
        scores = {
            name: SampleScore(score=s[sample_id], sample_id=sample_id, sample_metadata=meta)
            for name, s in reduced.items()
            if sample_id in s
        }
        headline = scores.get(scorer)
        level, status = graded_as(headline and headline.score, value)
        why = [g.reason for g in epochs[sample_id] if g.status != "scored" and g.reason]
        answers = list(dict.fromkeys(g.answer for g in epochs[sample_id]))
        answer = answers[0] if len(answers) == 1 else digest(*answers)
        question = digest(question_set, str(meta.get("question_id", sample_id)))
        human = float(meta.get("human_level", math.nan))
        reason = why[0] if why and status != "scored" else ""
        found.append(
            Item(sample_id, question, answer, human, level, status, reason, scores, meta, headline)
        )
    return found, graded


def paired(
    first: Sequence[Item], other: Sequence[Item], on: Key, held: bool = False
) -> list[tuple[Item, Item]]:
    """The items both logs scored (`held`: hold a score of, read or not), in the first's order."""
    wanted = ("scored", "unscored") if held else ("scored",)
    theirs = {item.key(on): item for item in other if item.status in wanted}
    return [(i, theirs[i.key(on)]) for i in first if i.status in wanted and i.key(on) in theirs]


def mean_difference(pairs: Sequence[tuple[Item, Item]]) -> Estimate:
    """The second's value minus the first's over the pairs: resampling per-pair differences is
    resampling the items with each pair kept, far narrower than two separate intervals."""
    return mean_estimate([other.value - first.value for first, other in pairs])


def group_members(items: Sequence[Item], key: str) -> dict[str, list[Item]]:
    """Items by a metadata key's value (a list value puts the item in each of its groups),
    largest group first: a table leads with the groups its headline rests on most."""
    members: dict[str, list[Item]] = {}
    for item in items:
        given = item.metadata.get(key)
        labels = given if isinstance(given, list) else [given]
        for label in [str(label) for label in labels if label not in (None, "")] or [NO_GROUP]:
            members.setdefault(label, []).append(item)
    return dict(sorted(members.items(), key=lambda found: (-len(found[1]), found[0])))
