"""Display names in tables and move logs (bot/text/names.py), shared by every game."""

from __future__ import annotations

from bot.text.names import TABLE_NAME_COLUMNS, block_name, block_names, escape_log
from bot.text.width import columns


def test_a_name_stays_on_one_line_inside_the_block_and_within_its_room() -> None:
    assert block_name("a`b\n  c") == "a'b c"
    assert columns(block_name("가나다라마바사아자차")) <= TABLE_NAME_COLUMNS
    assert block_name("W" * 40, 32) == "W" * 31 + "~"
    assert block_names(["   ", "bob"]) == ["?", "bob"]


def test_markdown_in_a_log_line_is_shown_as_typed() -> None:
    assert escape_log(["*bold* _it_ ~s~ |x| > q `c` \\"]) == [
        "\\*bold\\* \\_it\\_ \\~s\\~ \\|x\\| \\> q \\`c\\` \\\\"
    ]
