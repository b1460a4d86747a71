"""Request bodies checked against Discord's own OpenAPI description of its API.

``openapi/openapi.json`` beside this file is Discord's published description (the
``discord/discord-api-spec`` repository, MIT licence; ``openapi/SOURCE`` names the commit),
vendored unchanged. :func:`check_body` validates a request body against the schema Discord
gives for the route (JSON Schema 2020-12, the dialect of OpenAPI 3.1, with ``jsonschema``)
and returns Discord-style form errors: a path, a code and a sentence such as
``data.components[0].components[1].custom_id: 101 characters, at most 100``.

What the description cannot say (a bot's 2,000 characters, the 3-second first answer, the
15-minute token, one select per row...) is checked beside it, in :mod:`.limits`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

__all__ = ["SPEC_ROUTES", "check_body", "readable_path", "spec_commit"]

# The fake's routes (its own parameter names) and the description's path and method.
SPEC_ROUTES: dict[str, tuple[str, str]] = {
    "PUT /applications/{app_id}/commands": ("/applications/{application_id}/commands", "put"),
    "PUT /applications/{app_id}/guilds/{guild_id}/commands": (
        "/applications/{application_id}/guilds/{guild_id}/commands",
        "put",
    ),
    "POST /channels/{channel_id}/messages": ("/channels/{channel_id}/messages", "post"),
    "PATCH /channels/{channel_id}/messages/{message_id}": (
        "/channels/{channel_id}/messages/{message_id}",
        "patch",
    ),
    "POST /interactions/{interaction_id}/{token}/callback": (
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "post",
    ),
    "POST /webhooks/{app_id}/{token}": ("/webhooks/{webhook_id}/{webhook_token}", "post"),
    "PATCH /webhooks/{app_id}/{token}/messages/{message_id}": (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        "patch",
    ),
}


@functools.cache
def _description() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("openapi", "openapi.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def spec_commit() -> str:
    """The commit of ``discord/discord-api-spec`` the vendored description comes from."""
    source = resources.files(__package__).joinpath("openapi", "SOURCE").read_text("utf-8")
    for line in source.splitlines():
        if line.startswith("commit:"):
            return line.split()[1]
    raise LookupError("openapi/SOURCE names no commit")


@functools.cache
def _validator(route: str) -> Draft202012Validator:
    path, method = SPEC_ROUTES[route]
    spec = _description()
    schema = spec["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    # The body's schema refers to "#/components/schemas/...": give it the description's
    # components at its own root, where those references resolve.
    return Draft202012Validator({**schema, "components": spec["components"]})


def check_body(route: str, body: Any) -> list[tuple[str, str, str]]:
    """Why Discord's description refuses ``body`` on ``route`` (empty: it accepts it), as
    form errors ``(dotted path, code, sentence)``; the first error of each place only."""
    validator = _validator(route)
    errors: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for error in _leaves(validator.iter_errors(body)):
        path = ".".join(str(part) for part in error.absolute_path)
        if path in seen:
            continue
        seen.add(path)
        errors.append((path, _code(error), _sentence(error)))
    return errors


def _leaves(errors: Iterator[ValidationError]) -> Iterator[ValidationError]:
    """Each error; for one that only says no alternative fitted (``anyOf``/``oneOf``), the
    errors of the alternative meant: the one alternative for this kind of value (the others
    are for another JSON type, or another ``type`` field, as Discord tells components and
    options apart), or else the one that got deepest into the body with the fewest errors."""
    for error in errors:
        if error.validator not in ("anyOf", "oneOf") or not error.context:
            yield error
            continue
        branches: dict[object, list[ValidationError]] = {}
        for inner in error.context:
            branches.setdefault(inner.schema_path[0], []).append(inner)
        meant = [
            found
            for found in branches.values()
            if not any(_other_kind(inner, error) for inner in found)
        ]
        if len(meant) != 1:
            meant = [max(meant or branches.values(), key=_closeness)]
        yield from _leaves(iter(meant[0]))


def _other_kind(inner: ValidationError, outer: ValidationError) -> bool:
    """Whether ``inner`` shows its alternative is for another kind of value than given."""
    where = list(inner.absolute_path)[len(outer.absolute_path) :]
    if not where:
        return inner.validator == "type"
    return where == ["type"] and inner.validator in ("enum", "const")


def _depth(error: ValidationError) -> int:
    return max([len(error.absolute_path), *(_depth(inner) for inner in error.context or ())])


def _wrong_types(error: ValidationError) -> int:
    own = int(error.validator == "type")
    return own + sum(_wrong_types(inner) for inner in error.context or ())


def _closeness(found: list[ValidationError]) -> tuple[int, int, int, bool]:
    """How close an alternative came: fewest values of the wrong type (Discord's integer,
    number and string alternatives differ only in those), then deepest into the body, fewest
    errors, not ``null``."""
    only_null = all(e.validator == "type" and e.validator_value == "null" for e in found)
    wrong = sum(_wrong_types(e) for e in found)
    return (-wrong, max(_depth(e) for e in found), -len(found), not only_null)


def _code(error: ValidationError) -> str:
    return {
        "maxLength": "BASE_TYPE_MAX_LENGTH",
        "minLength": "BASE_TYPE_MIN_LENGTH",
        "maxItems": "BASE_TYPE_MAX_LENGTH",
        "minItems": "BASE_TYPE_MIN_LENGTH",
        "required": "BASE_TYPE_REQUIRED",
        "type": "BASE_TYPE_INVALID",
        "enum": "BASE_TYPE_CHOICES",
        "maximum": "NUMBER_TYPE_MAX",
        "minimum": "NUMBER_TYPE_MIN",
    }.get(str(error.validator), "SCHEMA_" + str(error.validator).upper())


def _sentence(error: ValidationError) -> str:
    value, limit, kind = error.instance, error.validator_value, error.validator
    if kind in ("maxLength", "minLength") and isinstance(value, str):
        bound = "at most" if kind == "maxLength" else "at least"
        return f"{len(value)} characters, {bound} {limit}"
    if kind in ("maxItems", "minItems") and isinstance(value, list):
        bound = "at most" if kind == "maxItems" else "at least"
        return f"{len(value)} items, {bound} {limit}"
    if kind in ("maxProperties", "minProperties") and isinstance(value, dict):
        bound = "at most" if kind == "maxProperties" else "at least"
        return f"{len(value)} entries, {bound} {limit}"
    if kind in ("maximum", "minimum"):
        return f"{value!r}, {'at most' if kind == 'maximum' else 'at least'} {limit}"
    if kind == "required" and isinstance(limit, list) and isinstance(value, dict):
        missing = [str(name) for name in limit if name not in value]
        return f"missing {', '.join(missing)}"
    if kind == "enum":
        return f"{value!r} is not one of {limit}"
    if kind == "type":
        return f"{_short(value)} is not of type {limit}"
    if kind == "pattern":
        return f"{_short(value)} does not match {limit}"
    return error.message


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def readable_path(dotted: str) -> str:
    """``data.components.0.custom_id`` as ``data.components[0].custom_id``."""
    out = ""
    for part in (p for p in dotted.split(".") if p):
        out += f"[{part}]" if part.isdigit() else f".{part}" if out else part
    return out
