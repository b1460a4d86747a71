"""Discord's message limits, checked the way the API checks them.

``check_message`` returns Discord-style form errors (path, code, message); the REST layer turns
them into the ``400 {"code": 50035, "errors": {...}, "message": "Invalid Form Body"}`` Discord
sends, and records them as violations so the test fails.
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = [
    "MAX_CONTENT",
    "FormError",
    "check_autocomplete_choices",
    "check_commands",
    "check_message",
    "check_modal",
    "form_error_body",
]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_CHOICES = 25

FormError = tuple[str, str, str]  # (path, code, message)


def _too_long(path: str, value: object, limit: int, errors: list[FormError]) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def check_message(data: dict[str, Any], *, require_body: bool = True) -> list[FormError]:
    """Every reason Discord would refuse this message body (empty list: accepted)."""
    errors: list[FormError] = []
    content = data.get("content")
    _too_long("content", content, MAX_CONTENT, errors)
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.append(
            ("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
        )
    for i, embed in enumerate(embeds):
        _check_embed(f"embeds.{i}", embed, errors)
    components = data.get("components") or []
    _check_components(components, errors)
    if (
        require_body
        and not content
        and not embeds
        and not components
        and not data.get("attachments")
        and not data.get("sticker_ids")
        and not data.get("poll")
    ):
        errors.append(("", "50006", "Cannot send an empty message"))
    return errors


def _check_embed(path: str, embed: dict[str, Any], errors: list[FormError]) -> None:
    total = 0
    for key, limit in (("title", MAX_EMBED_TITLE), ("description", MAX_EMBED_DESCRIPTION)):
        _too_long(f"{path}.{key}", embed.get(key), limit, errors)
        total += len(embed.get(key) or "")
    fields = embed.get("fields") or []
    if len(fields) > MAX_EMBED_FIELDS:
        errors.append(
            (f"{path}.fields", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBED_FIELDS} or fewer.")
        )
    for j, fld in enumerate(fields):
        _too_long(f"{path}.fields.{j}.name", fld.get("name"), MAX_FIELD_NAME, errors)
        _too_long(f"{path}.fields.{j}.value", fld.get("value"), MAX_FIELD_VALUE, errors)
        total += len(fld.get("name") or "") + len(fld.get("value") or "")
    footer = (embed.get("footer") or {}).get("text")
    _too_long(f"{path}.footer.text", footer, MAX_FOOTER, errors)
    author = (embed.get("author") or {}).get("name")
    _too_long(f"{path}.author.name", author, MAX_AUTHOR, errors)
    total += len(footer or "") + len(author or "")
    if total > MAX_EMBED_TOTAL:
        errors.append((path, "BASE_TYPE_MAX_LENGTH", "Embed size exceeds maximum size of 6000"))


def _check_components(rows: list[dict[str, Any]], errors: list[FormError]) -> None:
    if len(rows) > MAX_ROWS:
        errors.append(
            ("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
        )
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path = f"components.{i}"
        if row.get("type") != 1:
            errors.append((f"{path}.type", "UNION_TYPE_CHOICES", "Value of field must be 1"))
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if not children:
            errors.append((f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more."))
        if len(children) > MAX_ROW_BUTTONS:
            errors.append(
                (f"{path}.components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            )
        if selects and len(children) > 1:
            errors.append(
                (f"{path}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select fills a row.")
            )
        for j, comp in enumerate(children):
            _check_item(f"{path}.components.{j}", comp, seen, errors)


def _check_item(path: str, comp: dict[str, Any], seen: set[str], errors: list[FormError]) -> None:
    custom_id = comp.get("custom_id")
    if comp.get("type") == 2 and comp.get("style") in (5, 6):
        pass  # link and premium buttons carry no custom_id
    elif not custom_id:
        errors.append((f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
    else:
        _too_long(f"{path}.custom_id", custom_id, MAX_CUSTOM_ID, errors)
        if custom_id in seen:
            errors.append(
                (
                    f"{path}.custom_id",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(custom_id)
    if comp.get("type") == 2:
        _too_long(f"{path}.label", comp.get("label"), MAX_BUTTON_LABEL, errors)
        if not comp.get("label") and not comp.get("emoji"):
            errors.append(
                (f"{path}.label", "BASE_TYPE_REQUIRED", "A button needs a label or emoji")
            )
        return
    _too_long(f"{path}.placeholder", comp.get("placeholder"), MAX_PLACEHOLDER, errors)
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not options:
            errors.append((f"{path}.options", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more."))
        if len(options) > MAX_SELECT_OPTIONS:
            errors.append(
                (f"{path}.options", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append((f"{path}.options", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "dup"))
        for k, option in enumerate(options):
            for key in ("label", "value", "description"):
                _too_long(f"{path}.options.{k}.{key}", option.get(key), MAX_OPTION_TEXT, errors)
        max_values = comp.get("max_values", 1)
        if max_values > max(1, len(options)):
            errors.append(
                (f"{path}.max_values", "BASE_TYPE_MAX", "max_values exceeds the option count")
            )


def check_autocomplete_choices(choices: list[dict[str, Any]]) -> list[FormError]:
    """Autocomplete answers: at most 25 choices, names and string values up to 100 characters."""
    errors: list[FormError] = []
    if len(choices) > MAX_CHOICES:
        errors.append(("choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    for i, choice in enumerate(choices):
        _too_long(f"choices.{i}.name", choice.get("name"), MAX_OPTION_TEXT, errors)
        _too_long(f"choices.{i}.value", choice.get("value"), MAX_OPTION_TEXT, errors)
    return errors


def form_error_body(errors: list[FormError], *, prefix: str = "") -> dict[str, Any]:
    """Discord's nested error JSON: ``{"code": 50035, "errors": {...}, "message": ...}``."""
    if len(errors) == 1 and errors[0][1] == "50006":
        return {"code": 50006, "message": "Cannot send an empty message"}
    tree: dict[str, Any] = {}
    for path, code, message in errors:
        node = tree
        full = f"{prefix}.{path}".strip(".") if prefix else path
        for part in [p for p in full.split(".") if p]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "errors": tree, "message": "Invalid Form Body"}


MAX_MODAL_TITLE = 45
MAX_INPUT_LABEL = 45
MAX_INPUT_VALUE = 4000


def check_modal(data: dict[str, Any]) -> list[FormError]:
    """A modal: a custom_id, a title up to 45 characters, 1 to 5 rows or labels of inputs."""
    errors: list[FormError] = []
    if not data.get("custom_id"):
        errors.append(("custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
    _too_long("custom_id", data.get("custom_id"), MAX_CUSTOM_ID, errors)
    _too_long("title", data.get("title"), MAX_MODAL_TITLE, errors)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= MAX_ROWS:
        errors.append(("components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
    for i, row in enumerate(rows):
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for j, item in enumerate(children):
            path = f"components.{i}.components.{j}"
            _too_long(f"{path}.custom_id", item.get("custom_id"), MAX_CUSTOM_ID, errors)
            _too_long(f"{path}.label", item.get("label"), MAX_INPUT_LABEL, errors)
            _too_long(f"{path}.value", item.get("value"), MAX_INPUT_VALUE, errors)
    return errors


MAX_COMMAND_NAME = 32
MAX_COMMAND_DESCRIPTION = 100
SUBCOMMAND_TYPES = (1, 2)


def _bad_name(name: object) -> str | None:
    """Why Discord refuses a command or option name, or ``None``: it takes 1 to 32 letters,
    digits, ``-`` and ``_`` (lower case where a letter has one), in any script."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_COMMAND_NAME:
        return f"Must be between 1 and {MAX_COMMAND_NAME} in length."
    for char in name:
        # Letters, digits, - and _, and the vowel signs of Devanagari and Thai (marks).
        if not (char.isalnum() or char in "-_" or unicodedata.category(char) in ("Mn", "Mc")):
            return f"Command name is invalid: {char!r} is not allowed."
        if char.lower() != char:
            return "Command name must be lower case."
    return None


def check_commands(commands: list[dict[str, Any]], prefix: str = "") -> list[FormError]:
    """A bulk overwrite of application commands (or one level of their options): every name
    and its localizations valid, descriptions 1-100 characters, no two siblings named alike
    in any locale (a locale without a localization shows the default name)."""
    errors: list[FormError] = []
    # Context menus (top-level types 2 and 3) have free names and no description.
    checked = [(i, item) for i, item in enumerate(commands) if prefix or item.get("type", 1) == 1]
    locales = {loc for _, item in checked for loc in item.get("name_localizations") or {}}
    for locale in ("", *sorted(locales)):
        seen: set[str] = set()
        for i, item in checked:
            localized = (item.get("name_localizations") or {}).get(locale) if locale else None
            name = item.get("name") if localized is None else localized
            where = f"{prefix}{i}.name" + (f"_localizations.{locale}" if localized else "")
            reason = _bad_name(name)
            if reason is not None:
                if not locale or localized is not None:
                    errors.append((where, "APPLICATION_COMMAND_INVALID_NAME", reason))
            elif name in seen:
                errors.append((where, "APPLICATION_COMMAND_NAME_ALREADY_EXISTS", "Duplicate."))
            seen.add(str(name))
    for i, item in checked:
        texts = {"": item.get("description")} | dict(item.get("description_localizations") or {})
        for locale, text in texts.items():
            where = f"{prefix}{i}.description" + (f"_localizations.{locale}" if locale else "")
            if not isinstance(text, str) or not 1 <= len(text) <= MAX_COMMAND_DESCRIPTION:
                errors.append((where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 long."))
        if item.get("type", 1) in SUBCOMMAND_TYPES or not prefix:
            errors += check_commands(item.get("options") or [], prefix=f"{prefix}{i}.options.")
    return errors
