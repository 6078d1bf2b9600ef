"""providers.yaml: the schema (``schema``), the checks across keys (``checks``) and the loader (``loader``).

Everything public is importable from ``router.config`` as before.
"""

from router.config.loader import config_path, load_config, parse_config
from router.config.schema import *  # noqa: F403
from router.config.schema import __all__ as _schema_names

__all__ = [*(n for n in _schema_names if not n.startswith("_")), "config_path", "load_config", "parse_config"]
