"""What Discord refuses that its OpenAPI description cannot say, checked the way the API does.

Every field's type, length and count is checked against Discord's own description
(:mod:`.spec`); this module adds the rules its documentation states in words, each with the
line of ``discord/discord-api-docs`` (commit c98d64bc, ``developers/``) that states it. The
functions return Discord-style form errors ``(dotted path, code, sentence)``; the REST layer
turns them into the ``400 {"code": 50035, "errors": {...}}`` Discord sends, and records them
as violations so the test fails.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .spec import check_body

__all__ = [
    "ANY_FLAGS",
    "CHANNEL_MESSAGE_FLAGS",
    "DEFERRED_FLAGS",
    "INTERACTION_FLAGS",
    "MAX_CONTENT",
    "TOKEN_SECONDS",
    "WEBHOOK_EDIT_FLAGS",
    "WEBHOOK_FLAGS",
    "FormError",
    "check_autocomplete_choices",
    "check_command_sync",
    "check_commands",
    "check_message",
    "form_error_body",
]

FormError = tuple[str, str, str]  # (dotted path, code, sentence)

# resources/message.mdx:1080, webhook.mdx:237: "Message contents (up to 2000 characters)"; the
# description allows 4,000 on channel messages, which only Nitro users may send.
MAX_CONTENT = 2000
# components/reference.mdx:2542: "Legacy messages allow up to 5 action rows as top-level
# components" (the description's 40 is for messages flagged IS_COMPONENTS_V2).
MAX_LEGACY_ROWS = 5
IS_COMPONENTS_V2 = 1 << 15
# resources/message.mdx:619: "the combined sum of characters in all title, description,
# field.name, field.value, footer.text, and author.name fields across all embeds attached to
# a message must not exceed 6000 characters".
MAX_EMBED_TOTAL = 6000
# interactions/receiving-and-responding.mdx:351: "Interaction tokens are valid for 15 minutes".
TOKEN_SECONDS = 15 * 60

SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS = 1 << 2, 1 << 6, 1 << 12
IS_VOICE_MESSAGE = 1 << 13
# The flags a body may set: interactions/receiving-and-responding.mdx:299 (a response's
# message), resources/message.mdx:1091 (a channel message), resources/webhook.mdx:247 (a
# webhook's message; an interaction's follow-up may be ephemeral too).
INTERACTION_FLAGS = (
    SUPPRESS_EMBEDS | EPHEMERAL | IS_COMPONENTS_V2 | IS_VOICE_MESSAGE | SUPPRESS_NOTIFICATIONS
)
CHANNEL_MESSAGE_FLAGS = (
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
)
WEBHOOK_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | EPHEMERAL
# interactions/receiving-and-responding.mdx:304: a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
# callback's "only valid message flag you may use is EPHEMERAL".
DEFERRED_FLAGS = EPHEMERAL
# resources/webhook.mdx:333: editing a webhook's message takes "SUPPRESS_EMBEDS and
# IS_COMPONENTS_V2 only". (A channel message's edit ignores the flags it does not take,
# resources/message.mdx:1178: the fake checks none there.)
WEBHOOK_EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
ANY_FLAGS = -1

SELECTS = (3, 5, 6, 7, 8)
LINK, PREMIUM = 5, 6


def check_message(
    data: dict[str, Any], *, flags: int = INTERACTION_FLAGS, require_body: bool = True
) -> list[FormError]:
    """Every rule beyond the description a message body breaks (empty list: accepted);
    ``flags``: the message flags this route lets a body set."""
    errors: list[FormError] = []
    content = data.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors.append(
            ("content", "BASE_TYPE_MAX_LENGTH", f"{len(content)} characters, at most 2000")
        )
    extra = int(data.get("flags") or 0) & ~flags
    if extra:
        errors.append(("flags", "MESSAGE_FLAGS_INVALID", f"flags {extra:#x} cannot be set here"))
    _check_mentions(data.get("allowed_mentions"), errors)
    _check_embeds(data.get("embeds") or [], errors)
    rows = data.get("components") or []
    legacy = not int(data.get("flags") or 0) & IS_COMPONENTS_V2
    if legacy and len(rows) > MAX_LEGACY_ROWS:
        errors.append(("components", "BASE_TYPE_MAX_LENGTH", f"{len(rows)} rows, at most 5"))
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if isinstance(row, dict):
            _check_row(f"components.{i}", row, seen, errors)
    if (
        require_body
        and not content
        and not data.get("embeds")
        and not rows
        and not data.get("attachments")
        and not data.get("sticker_ids")
        and not data.get("poll")
    ):
        errors.append(("", "50006", "Cannot send an empty message"))
    return errors


def _check_mentions(mentions: object, errors: list[FormError]) -> None:
    # resources/message.mdx:783: "the parse field is mutually exclusive with the other fields"
    # (809: "includes both parse and users ... causing a validation error").
    if not isinstance(mentions, dict):
        return
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and mentions.get(kind):
            errors.append(
                (
                    f"allowed_mentions.{kind}",
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f"parse names {kind!r} and {kind} lists them too: mutually exclusive",
                )
            )


def _check_embeds(embeds: list[Any], errors: list[FormError]) -> None:
    total = 0
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        texts = [embed.get("title"), embed.get("description")]
        texts += [(embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
        for field in embed.get("fields") or []:
            texts += [field.get("name"), field.get("value")]
        total += sum(len(text) for text in texts if isinstance(text, str))
    if total > MAX_EMBED_TOTAL:
        errors.append(("embeds", "BASE_TYPE_MAX_LENGTH", f"{total} characters, at most 6000"))


def _check_row(path: str, row: dict[str, Any], seen: set[str], errors: list[FormError]) -> None:
    children = [c for c in row.get("components") or [] if isinstance(c, dict)]
    # components/reference.mdx:108: "Up to 5 interactive button components or a single select".
    if any(c.get("type") in SELECTS for c in children) and len(children) > 1:
        errors.append(
            (
                f"{path}.components",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                f"a select fills its row, which holds {len(children)} components",
            )
        )
    for j, item in enumerate(children):
        where = f"{path}.components.{j}"
        custom_id = item.get("custom_id")
        # components/reference.mdx:81: "Multiple components on the same message must not share
        # the same custom_id".
        if isinstance(custom_id, str):
            if custom_id in seen:
                errors.append(
                    (f"{where}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "used twice")
                )
            seen.add(custom_id)
        if item.get("type") == 2:
            _check_button(where, item, errors)
        elif item.get("type") == 3:
            _check_select(where, item, errors)


def _check_button(path: str, button: dict[str, Any], errors: list[FormError]) -> None:
    style = button.get("style")
    # components/reference.mdx:185: "Link buttons must have a url, and cannot have a custom_id";
    # 184: "Non-link and non-premium buttons must have a custom_id, and cannot have a url".
    if style == LINK:
        if not button.get("url"):
            errors.append((f"{path}.url", "BASE_TYPE_REQUIRED", "a link button needs a url"))
        if button.get("custom_id"):
            errors.append((f"{path}.custom_id", "BUTTON_LINK_CUSTOM_ID", "not on a link button"))
    elif style != PREMIUM:
        if not button.get("custom_id"):
            errors.append((f"{path}.custom_id", "BASE_TYPE_REQUIRED", "missing custom_id"))
        if button.get("url"):
            errors.append((f"{path}.url", "BUTTON_URL_NOT_LINK", "only a link button has a url"))
        if not button.get("label") and not button.get("emoji"):
            errors.append((f"{path}.label", "BASE_TYPE_REQUIRED", "needs a label or an emoji"))


def _check_select(path: str, select: dict[str, Any], errors: list[FormError]) -> None:
    options = select.get("options") or []
    least, most = select.get("min_values"), select.get("max_values")
    low = 1 if least is None else int(least)
    high = 1 if most is None else int(most)
    # components/reference.mdx:303-304: min_values and max_values each "defaults to 1"; the
    # least to choose cannot be above the most, nor the most above the options offered.
    if low > high:
        errors.append((f"{path}.min_values", "SELECT_MIN_ABOVE_MAX", f"{low} above {high}"))
    if high > len(options):
        errors.append(
            (
                f"{path}.max_values",
                "BASE_TYPE_MAX",
                f"{high}, more than its {len(options)} options",
            )
        )
    values = [o.get("value") for o in options if isinstance(o, dict)]
    if len(set(values)) != len(values):
        errors.append((f"{path}.options", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "twice"))
    defaults = sum(1 for o in options if isinstance(o, dict) and o.get("default"))
    if defaults > high:
        errors.append((f"{path}.options", "SELECT_TOO_MANY_DEFAULTS", f"{defaults} defaults"))


# interactions/application-commands.mdx:124: a choice's value is "up to 100 characters if
# string" (the description allows 6,000).
MAX_CHOICE_VALUE = 100


def check_autocomplete_choices(choices: list[Any]) -> list[FormError]:
    """Autocomplete answers: string values up to 100 characters."""
    return [
        (f"choices.{i}.value", "BASE_TYPE_MAX_LENGTH", f"{len(c['value'])} characters, at most 100")
        for i, c in enumerate(choices)
        if isinstance(c, dict)
        and isinstance(c.get("value"), str)
        and len(c["value"]) > MAX_CHOICE_VALUE
    ]


MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_COMMAND_TEXT = 8000
MAX_CHAT_COMMANDS = 100
SUBCOMMAND_TYPES = (1, 2)
# Scripts whose combining marks a name may use (the \p{sc=Deva} and \p{sc=Thai} of the regex).
_MARK_SCRIPTS = ("DEVANAGARI", "THAI")


def _bad_name(name: object) -> str | None:
    """Why Discord refuses a command or option name, or ``None``.

    interactions/application-commands.mdx:18: names match
    ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and use the lowercase variant of
    any letter that has one."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return f"{len(name) if isinstance(name, str) else 0} characters, 1 to 32"
    for char in name:
        category = unicodedata.category(char)
        if char in "-_'" or category[0] in "LN":
            if char.lower() != char:
                return f"{char!r} must be lower case"
            continue
        if category[0] == "M" and unicodedata.name(char, "").startswith(_MARK_SCRIPTS):
            continue
        return f"{char!r} is not allowed in a name"
    return None


def check_commands(commands: list[dict[str, Any]], prefix: str = "") -> list[FormError]:
    """The rules of a bulk overwrite of commands beyond the description: names in every
    locale, 1-100 character descriptions, no two siblings named alike in any locale (a locale
    without a localization shows the default name), required options first, no choices with
    autocomplete, choice values up to 100, 8,000 characters a command, 100 slash commands."""
    errors: list[FormError] = []
    # Context menus (top-level types 2 and 3) have free names and no description.
    checked = [(i, item) for i, item in enumerate(commands) if prefix or item.get("type", 1) == 1]
    if not prefix and len(checked) > MAX_CHAT_COMMANDS:
        # interactions/application-commands.mdx:169: "100 global CHAT_INPUT commands", 174:
        # "the same amount of guild-specific commands per guild".
        errors.append(("", "MAX_COMMANDS", f"{len(checked)} slash commands, at most 100"))
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
                errors.append((where, "APPLICATION_COMMAND_NAME_ALREADY_EXISTS", "named twice"))
            seen.add(str(name))
    optional_seen = False
    for i, item in checked:
        # interactions/application-commands.mdx:31 and 73: "1-100 character description".
        texts = {"": item.get("description")} | dict(item.get("description_localizations") or {})
        for locale, text in texts.items():
            where = f"{prefix}{i}.description" + (f"_localizations.{locale}" if locale else "")
            if not isinstance(text, str) or not 1 <= len(text) <= MAX_DESCRIPTION:
                size = len(text) if isinstance(text, str) else 0
                errors.append((where, "BASE_TYPE_BAD_LENGTH", f"{size} characters, 1 to 100"))
        if prefix and item.get("type") not in SUBCOMMAND_TYPES:
            errors += _check_option(f"{prefix}{i}", item, optional_seen)
            optional_seen = optional_seen or not item.get("required")
        if item.get("type", 1) in SUBCOMMAND_TYPES or not prefix:
            errors += check_commands(item.get("options") or [], prefix=f"{prefix}{i}.options.")
        if not prefix:
            size = _command_size(item)
            if size > MAX_COMMAND_TEXT:
                # interactions/application-commands.mdx:450: "a maximum of 8000 characters for
                # combined name, description, and value properties" (the longest localization).
                errors.append(
                    (f"{i}", "APPLICATION_COMMAND_TOO_LARGE", f"{size} characters, at most 8000")
                )
    return errors


def _check_option(path: str, option: dict[str, Any], optional_before: bool) -> list[FormError]:
    errors: list[FormError] = []
    # interactions/application-commands.mdx:65: "Required options must be listed before
    # optional options".
    if option.get("required") and optional_before:
        errors.append(
            (f"{path}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "after optional")
        )
    # interactions/application-commands.mdx:88: "autocomplete may not be set to true if choices
    # are present".
    if option.get("autocomplete") and option.get("choices"):
        errors.append((f"{path}.autocomplete", "AUTOCOMPLETE_WITH_CHOICES", "with choices"))
    for k, choice in enumerate(option.get("choices") or []):
        value = choice.get("value") if isinstance(choice, dict) else None
        if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
            errors.append(
                (
                    f"{path}.choices.{k}.value",
                    "BASE_TYPE_MAX_LENGTH",
                    f"{len(value)} characters, at most 100",
                )
            )
    return errors


def _longest(item: dict[str, Any], key: str) -> int:
    texts = [item.get(key), *(item.get(f"{key}_localizations") or {}).values()]
    return max((len(str(text)) for text in texts if text is not None), default=0)


def _command_size(item: dict[str, Any]) -> int:
    """The characters of a command's names, descriptions and choice values, each counted
    at its longest localization (interactions/application-commands.mdx:450)."""
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(_command_size(option) for option in item.get("options") or [])


def check_command_sync(route: str, commands: Any) -> list[FormError]:
    """A command sync as Discord checks it: the description, then the rules beyond it."""
    errors = check_body(route, commands)
    if not errors and isinstance(commands, list):
        errors = check_commands(commands)
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
