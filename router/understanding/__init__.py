"""What kind of work a question is: the one local reading that mode choice and routing share.

    >>> from router.understanding import understand
    >>> u = understand("prove that sqrt(2) is irrational")
    >>> u.task, "proof" in u.constraints, "exact_figure" in u.constraints
    ('maths', True, False)

``understand(text)`` gives the task type (one of ``TASK_TYPES``), the language, hard constraints
(an exact figure, a format, a length, a proof, options to weigh), a confidence, and a small fixed
vector for learners. Deterministic and local: no network, no model, pure Python, cached per text.
Importing this package compiles nothing; the cue tables compile on the first call.
"""

from __future__ import annotations

from router.understanding.analyse import detect_language, understand
from router.understanding.types import TASK_TYPES, VECTOR_DIMENSION, Understanding

__all__ = ["TASK_TYPES", "VECTOR_DIMENSION", "Understanding", "detect_language", "understand"]
