"""lessons.tools.model_types' readings of transformers' config classes, checked against the live classes:
LENGTH_ALIASES (the model types whose class answers max_position_embeddings with another key, its
attribute_map) and NESTED_WHEN_FLAT (the vision-language types whose class moves a flat file's text keys
into text_config). Run by check_live.py under `make reference`."""

from __future__ import annotations

from lessons.tools.model_types import LENGTH_ALIASES, NESTED_WHEN_FLAT


def live_check() -> list[str]:
    """Problems, empty when both tables are what transformers' installed config classes do."""
    from transformers import AutoConfig
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    problems, found = [], {}
    for model_type in CONFIG_MAPPING:
        try:
            cls = CONFIG_MAPPING[model_type]
        except Exception:  # noqa: BLE001 - a class that needs an extra package
            continue
        target = getattr(cls, "attribute_map", {}).get("max_position_embeddings")
        if target:
            found[model_type] = target
    if found != LENGTH_ALIASES:
        problems.append(f"LENGTH_ALIASES differs from the live attribute_maps: "
                        f"{sorted(set(found.items()) ^ set(LENGTH_ALIASES.items()))}")
    for model_type in NESTED_WHEN_FLAT:
        config = AutoConfig.for_model(model_type, max_position_embeddings=1234, rope_theta=5000.0)
        text = getattr(config, "text_config", None)
        if getattr(text, "max_position_embeddings", None) != 1234:
            problems.append(f"{model_type}: a flat max_position_embeddings does not land in text_config")
    return problems
