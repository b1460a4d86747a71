// The sandbox page's pure functions (bot/sandbox/static/render.js), run by Node's test runner
// from tests/e2e/test_sandbox.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ansiToHtml, contentHtml, inlineHtml, localPath, optionSuggestions, readCommand,
} from "../../bot/sandbox/static/render.js";

const COMMANDS = [
  {
    name: "onecard", name_localizations: { ko: "원카드" }, description: "Play One Card",
    options: [
      { type: 1, name: "start", name_localizations: { ko: "시작" }, description: "Open a table",
        options: [
          { type: 4, name: "players", description: "Seats" },
          { type: 4, name: "bots", description: "Computers" },
          { type: 4, name: "seed", description: "Seed" },
        ] },
      { type: 1, name: "play", description: "Play a card",
        options: [
          { type: 3, name: "card", description: "Your card", required: true, autocomplete: true },
          { type: 3, name: "suit", description: "After a 7", choices: [{ name: "♠", value: "♠" }] },
        ] },
    ],
  },
  { name: "stats", description: "Your results", options: [] },
];

test("ansi colours become spans and text is escaped", () => {
  assert.equal(ansiToHtml("\x1b[31m[♥ A]\x1b[0m <b>"), '<span class="a31">[♥ A]</span> &lt;b&gt;');
  assert.equal(ansiToHtml("\x1b[1;34mX\x1b[0mY"), '<span class="a34 a1">X</span>Y');
});

test("markdown outside code blocks, escapes kept literal, mentions named", () => {
  assert.equal(inlineHtml("**Go!** \\*Al\\* <@5>", { 5: "bob" }),
    '<b>Go!</b> *Al* <span class="mention">@bob</span>');
  assert.equal(inlineHtml("`a*b*` <script>"), "<code>a*b*</code> &lt;script&gt;");
});

test("a message's code block keeps its layout and colour", () => {
  const html = contentHtml("log line\n```ansi\n\x1b[31m♥\x1b[0m  x\n```");
  assert.equal(html, 'log line<pre><span class="a31">♥</span>  x</pre>');
  assert.equal(contentHtml("```\n*not bold*\n```"), "<pre>*not bold*</pre>");
});

test("the command bar reads a path, options by name, and a bare value as the next option", () => {
  const read = readCommand("/onecard start 4 seed:42", COMMANDS, "en");
  assert.deepEqual(read.path, ["onecard", "start"]);
  assert.deepEqual(read.options, { players: "4", seed: "42" });
  assert.equal(read.problem, null);
});

test("Korean names of commands are understood", () => {
  const read = readCommand("/원카드 시작 3", COMMANDS, "ko");
  assert.deepEqual(read.path, ["onecard", "start"]);
  assert.deepEqual(read.options, { players: "3" });
});

test("suggestions: commands while typing the path, options after it, values of an option", () => {
  assert.equal(readCommand("/one", COMMANDS, "en").focus.kind, "command");
  const after = readCommand("/onecard start ", COMMANDS, "en");
  assert.equal(after.focus.kind, "option");
  assert.deepEqual(optionSuggestions(after.node, "", {}, "en").map((o) => o.name), ["players", "bots", "seed"]);
  const value = readCommand("/onecard play card:♠", COMMANDS, "en");
  assert.equal(value.focus.kind, "value");
  assert.equal(value.focus.option.name, "card");
  assert.equal(value.focus.typed, "♠");
  const required = optionSuggestions(readCommand("/onecard play ", COMMANDS, "en").node, "", {}, "en");
  assert.equal(required[0].name, "card");
});

test("a value may hold spaces until the next option", () => {
  const read = readCommand("/onecard play card:♠ 7 suit:♠", COMMANDS, "en");
  assert.deepEqual(read.options, { card: "♠ 7", suit: "♠" });
});

test("unknown commands and options are named", () => {
  assert.match(readCommand("/poker start ", COMMANDS, "en").problem, /not a command/);
  assert.match(readCommand("/onecard start colour:red ", COMMANDS, "en").problem, /no option colour/);
});

test("a word that starts an option's name is offered as that option, not taken as a value", () => {
  const read = readCommand("/onecard start se", COMMANDS, "en");
  assert.deepEqual(read.options, {});
  assert.equal(read.focus.kind, "option");
  assert.equal(read.focus.typed, "se");
});

test("the command a member used is named in the reader's language", () => {
  assert.equal(localPath("onecard start", COMMANDS, "ko"), "원카드 시작");
  assert.equal(localPath("onecard start", COMMANDS, "en"), "onecard start");
  assert.equal(localPath("onecard play", COMMANDS, "ko"), "원카드 play");  // no Korean name
  assert.equal(localPath("poker start", COMMANDS, "ko"), "poker start");  // not synced
});
