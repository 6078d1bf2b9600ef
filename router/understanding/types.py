"""What the understanding returns: the one description of a question that modes and routing read."""

from __future__ import annotations

from dataclasses import dataclass, field

TASK_TYPES: tuple[str, ...] = (
    "coding",
    "maths",
    "reasoning",
    "extraction",
    "writing",
    "roleplay",
    "knowledge",
    "humanities",
    "translation",
    "chat",
    "live_data",
    "schedule",
)
"""``knowledge`` is knowledge and STEM facts; ``translation`` covers translating and rewriting a given
text; ``live_data`` means the answer needs live data or a tool; ``schedule`` is a dated entry to file."""

VECTOR_DIMENSION = 64


@dataclass(frozen=True)
class Understanding:
    task: str
    """One of ``TASK_TYPES``."""
    language: str
    """ISO 639-1 code of the question's language: "zh", "en", "ja", ..."""
    constraints: frozenset[str]
    """Hard requirements read from the text: ``exact_figure`` (a number that must be computed, not
    estimated), ``format`` (JSON, a table, a list), ``length``, ``proof``, ``options`` (plans to weigh),
    ``code``, ``selection`` (an extraction that keeps the items of a given text meeting a condition: answered
    by reasoning, not by filling a record per item)."""
    confidence: float
    """Probability of ``task`` among the task scores (0..1)."""
    vector: tuple[float, ...]
    """``VECTOR_DIMENSION`` numbers for learners: task probabilities, constraint flags, size, and a
    hashed sketch of the words; fixed dimension, deterministic."""
    evidence: tuple[str, ...] = field(default=(), compare=False)
    """The strongest cues behind ``task``, for reason strings."""
    scores: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    """Every task's raw score, in ``TASK_TYPES`` order."""

    @property
    def summary(self) -> str:
        """``task`` plus its constraints, for reasons: ``maths (exact_figure)``."""
        extra = sorted(self.constraints - {"code"})
        return self.task + (f" ({', '.join(extra)})" if extra else "")
