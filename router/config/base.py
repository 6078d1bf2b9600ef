"""The base of every providers.yaml section: strict, frozen, and validated only when present.

Strict because a typo that passes silently is the most expensive kind of config bug
(unknown keys rejected, no inf/nan). The rest is about start-up: building a pydantic
validator costs far more than using it, and a CLI answer reads one file once, so

- ``defer_build``: a model's validator is built when the model first validates, not
  when its class is defined;
- ``Lazy[Model]``: a field whose value the field's own model validates, so the parent's
  validator does not contain the child's (a file without ``server:`` never builds
  the server settings' validator). Errors keep their full location and wording;
- ``defaults(Model)``: the ``default_factory`` of such a field. It constructs the
  declared defaults without validating them, as pydantic never validates defaults
  either; equal to ``Model()`` (tests/test_config_lazy.py checks every section).

Every setting is still declared once, in its model; nothing here knows any field. The section
modules do without ``from __future__ import annotations``: with it, pydantic compiles and evaluates
every field's annotation string when the class is made (~1% of a mock answer's instructions).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic_core import core_schema

M = TypeVar("M", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)


class _OwnValidator:
    """Annotation: validate the value with the annotated model's own validator, built on first use."""

    def __get_pydantic_core_schema__(self, source: type[BaseModel], handler: Any) -> core_schema.CoreSchema:
        def validate(value: Any) -> BaseModel:
            return value if isinstance(value, source) else source.model_validate(value)

        def dump(value: BaseModel, info: core_schema.SerializationInfo) -> Any:
            return value.model_dump(mode=info.mode, by_alias=info.by_alias, exclude_unset=info.exclude_unset,
                                    exclude_defaults=info.exclude_defaults, exclude_none=info.exclude_none,
                                    round_trip=info.round_trip)  # fmt: skip

        def json_schema(schema: core_schema.CoreSchema, handler: Any) -> Any:  # RouterConfig.model_json_schema()
            return handler(source.__pydantic_core_schema__)

        return core_schema.no_info_plain_validator_function(
            validate, serialization=core_schema.plain_serializer_function_ser_schema(dump, info_arg=True),
            metadata={"pydantic_js_functions": [json_schema]},
        )


Lazy = Annotated[M, _OwnValidator()]
"""``Lazy[LoopSettings]`` is a ``LoopSettings`` to type checkers and to pydantic's field info."""


def defaults(model: type[M]) -> Callable[[], M]:
    """``default_factory`` for a ``Lazy`` field: the model's declared defaults, its validator left unbuilt."""

    def make() -> M:
        return model.model_construct()

    make.__qualname__ = f"defaults({model.__name__})"
    return make


__all__ = ["Lazy", "_Strict", "defaults"]
