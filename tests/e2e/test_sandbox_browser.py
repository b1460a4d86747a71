"""The sandbox in a real browser: ``deckhand sandbox`` started as a user starts it, its page
opened in Debian's headless Chromium (driven by Playwright), One Card played by two members
through the command bar, buttons and menus.

``.ci/run`` installs Chromium when it is missing. Set ``SANDBOX_SCREENSHOT=docs/sandbox.png``
to refresh the README's picture from this test.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
playwright_api = pytest.importorskip("playwright.async_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed (apt-get install chromium)"
)

PHONE = {"width": 420, "height": 900}
WAIT_MS = 10_000


@contextlib.asynccontextmanager
async def sandbox(tmp_path: Path) -> AsyncIterator[str]:
    """``deckhand sandbox --port 0`` in its own process; the page's address once the bot has
    synced its commands."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sandbox", "--port", "0",
        "--database-url", f"sqlite:///{tmp_path / 'sandbox.db'}",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert process.stdout is not None
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        found = re.search(rb"open (http://127\.0\.0\.1:\d+)", line)
        assert found, line
        while b"synced" not in line:  # the bot logs once its commands are registered
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            assert line, "the sandbox stopped before the bot was ready"
        yield found[1].decode()
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 30)


async def as_member(page: Any, name: str) -> None:
    """Switch to member ``name`` and wait until the channel is drawn as they see it."""
    [member_id] = await page.select_option("#member", label=name)
    await page.locator(f'#messages[data-member="{member_id}"]').wait_for(
        state="attached", timeout=WAIT_MS
    )


async def command(page: Any, text: str) -> None:
    await page.fill("#command", text)
    await page.press("#command", "Enter")


async def newest_table(page: Any, hand: str = "Hand") -> Any:
    """The last public message holding a code block and a Hand button (labelled ``hand``)."""
    tables = page.locator("#messages li").filter(has=page.get_by_role("button", name=hand))
    await tables.last.wait_for(timeout=WAIT_MS)
    return tables.last


async def test_two_members_play_one_card_in_the_browser(tmp_path: Path) -> None:
    async with sandbox(tmp_path) as url, playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = await browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(url)
        await as_member(page, "alice")

        # A refusal of the command bar (Discord's own check) is shown, and nothing is sent.
        await command(page, "/onecard start players:9")
        await page.locator("#problem").filter(has_text="above 4").wait_for(timeout=WAIT_MS)

        # Suggestions as you type: the command, then its options.
        await page.fill("#command", "")
        await page.type("#command", "/onec")
        await page.locator("#suggestions li").filter(has_text="/onecard").wait_for()
        await page.press("#command", "Tab")
        await page.type("#command", "st")
        await page.press("#command", "Tab")
        assert await page.input_value("#command") == "/onecard start "
        # Seed 3 (a practice deal): alice leads with a playable card, then bob has ♦3.
        await page.type("#command", "2 seed:3")
        await page.press("#command", "Enter")
        await page.get_by_text("alice used /onecard start").wait_for(timeout=WAIT_MS)

        await as_member(page, "bob")
        await command(page, "/onecard join")
        table = await newest_table(page)
        assert await table.locator(".mention").first.text_content() == "@alice"
        first, second = "alice", "bob"

        # The member whose turn it is plays by the Hand button and its menu.
        await as_member(page, first)
        await (await newest_table(page)).get_by_role("button", name="Hand").click()
        hand = page.locator("#messages li").filter(has_text="Only you can see this").last
        await hand.wait_for(timeout=WAIT_MS)
        listing = await hand.locator("pre").text_content()
        assert listing is not None and "5 cards in your hand:" in listing
        menu = hand.locator("select")
        values = await menu.locator("option").evaluate_all("os => os.map(o => o.value)")
        assert values[-1] == "take"
        await menu.select_option(values[1])  # the first legal card
        played = page.get_by_text(re.compile(rf"{first} \(A\) played "))
        await played.first.wait_for(timeout=WAIT_MS)

        # The other member sees the table but not that hand.
        await as_member(page, second)
        assert await page.locator("#messages").get_by_text(listing.strip()).count() == 0
        assert "Only you can see this" not in (await page.locator("#messages").inner_text())

        # ... and plays by slash command with the bot's autocomplete: its one legal card.
        await page.fill("#command", "")
        await page.type("#command", "/onecard play card:")
        suggestions = page.locator("#suggestions li").filter(has_text=re.compile("[♠♥♦♣]"))
        await suggestions.first.wait_for(timeout=WAIT_MS)
        assert await suggestions.all_inner_texts() == ["♦3"]
        await page.press("#command", "Tab")
        assert await page.input_value("#command") == "/onecard play card:♦3 "
        await page.press("#command", "Enter")
        moved = page.get_by_text(re.compile(rf"{second} \(B\) played ♦3"))
        await moved.first.wait_for(timeout=WAIT_MS)

        # A move the engine refuses is answered to that member alone, with the reason.
        await as_member(page, second)
        await command(page, "/onecard play card:ZZ")
        refusal = page.locator("#messages li").filter(has_text="Only you can see this").last
        await refusal.filter(has_text="It is not your turn.").wait_for(timeout=WAIT_MS)
        shot = os.environ.get("SANDBOX_SCREENSHOT")
        if shot:
            await as_member(page, first)
            await page.screenshot(path=shot)
        assert errors == []
        await browser.close()


async def test_the_server_language_switch_and_the_member_who_manages_the_server(
    tmp_path: Path,
) -> None:
    async with sandbox(tmp_path) as url, playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = await browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(url)
        await as_member(page, "alice")
        # Which language is whose, in words; the member who may change the settings, named.
        assert await page.text_content("#server-language-label") == "Server language"
        assert await page.text_content("#language-label") == "Your language"
        labels = await page.locator("#member option").all_inner_texts()
        assert "dana (Manage Server)" in labels and "alice" in labels

        await page.select_option("#server-language", "ko")
        await page.locator('body[data-server-language="ko"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        assert await page.input_value("#language") == "en"  # alice's own stays English
        await command(page, "/onecard start 2 bots:1 seed:3")
        korean = await newest_table(page, "내 패")
        assert "덱" in (await korean.locator("pre").text_content() or "")

        # 지민, Korean herself: the page's words and the command used are hers too.
        await as_member(page, "지민")
        assert await page.text_content("#server-language-label") == "서버 언어"
        assert await page.text_content("#language-label") == "내 언어"
        assert "dana (서버 관리)" in await page.locator("#member option").all_inner_texts()
        await page.get_by_text("alice님이 /원카드 시작 사용").wait_for(timeout=WAIT_MS)

        # Back to English: the next table is English again.
        await page.select_option("#server-language", "en")
        await page.locator('body[data-server-language="en"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        await page.click("#menu")  # the channel list, folded away at phone width
        await page.locator("#channels button", has_text="more-games").click()
        await command(page, "/원카드 시작 2 컴퓨터:1 시드:3")
        await newest_table(page, "Hand")
        assert errors == []
        await browser.close()
