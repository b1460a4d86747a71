// Pure functions of the sandbox page: a message's text as Discord draws it, and the command
// bar's reading of what was typed. No DOM here, so Node can test them (tests/sandbox).

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// An ansi code block: colour codes become spans (Discord knows 30-37, 40-47, bold, underline).
export function ansiToHtml(text) {
  const parts = String(text).split(/\x1b\[([0-9;]*)m/);
  let fg = null, bg = null, bold = false, under = false, out = "";
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      for (const code of (part || "0").split(";").map(Number)) {
        if (code === 0) { fg = bg = null; bold = under = false; }
        else if (code === 1) bold = true;
        else if (code === 4) under = true;
        else if (code >= 30 && code <= 37) fg = code;
        else if (code >= 40 && code <= 47) bg = code;
      }
      return;
    }
    if (!part) return;
    const classes = [fg, bg, bold ? 1 : null, under ? 4 : null].filter((c) => c !== null);
    out += classes.length
      ? `<span class="${classes.map((c) => "a" + c).join(" ")}">${escapeHtml(part)}</span>`
      : escapeHtml(part);
  });
  return out;
}

// Markdown outside code blocks: escapes, inline code, bold, italics, underline, mentions.
export function inlineHtml(text, names = {}) {
  const kept = [];
  const keep = (html) => `\u0000${kept.push(html) - 1}\u0000`;
  let s = String(text)
    .replace(/\\([\\`*_~|>#\-\[\]()<])/g, (_, c) => keep(escapeHtml(c)))
    .replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${escapeHtml(code)}</code>`));
  s = escapeHtml(s)
    .replace(/\*\*([^*\n]+)\*\*/g, "<b>$1</b>")
    .replace(/__([^_\n]+)__/g, "<u>$1</u>")
    .replace(/(^|[^*\w])\*([^*\n]+)\*/g, "$1<i>$2</i>")
    .replace(/(^|[^_\w])_([^_\n]+)_/g, "$1<i>$2</i>")
    .replace(/~~([^~\n]+)~~/g, "<s>$1</s>")
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${escapeHtml(names[id] || "unknown")}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${escapeHtml(names[id] || "channel")}</span>`);
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => kept[Number(i)]);
}

// A message's content: code blocks (```ansi in colour) between markdown text.
export function contentHtml(content, names = {}) {
  const block = /```([a-zA-Z]*)\n?([\s\S]*?)```/g;
  let out = "", last = 0, match;
  while ((match = block.exec(content)) !== null) {
    out += inlineHtml(content.slice(last, match.index).replace(/\n$/, ""), names);
    const body = match[2].replace(/\n$/, "");
    out += `<pre>${match[1] === "ansi" ? ansiToHtml(body) : escapeHtml(body)}</pre>`;
    last = block.lastIndex;
  }
  return out + inlineHtml(content.slice(last).replace(/^\n/, ""), names);
}

const SUBCOMMAND = 1, GROUP = 2;

// A command's or option's name in the member's language ("ko"), or its own.
export function localName(item, language) {
  const names = item.name_localizations || {};
  return names[language] || names[language === "en" ? "en-US" : language] || item.name;
}

export function localDescription(item, language) {
  const texts = item.description_localizations || {};
  return texts[language] || texts[language === "en" ? "en-US" : language] || item.description || "";
}

function byName(items, word, language) {
  const wanted = word.toLowerCase();
  return items.find((i) => i.name === wanted || localName(i, language).toLowerCase() === wanted);
}

// What the command bar holds: the command path (canonical names), its options (canonical
// names, values as typed), and what the last word is, for suggestions:
// {kind: "command", typed, choices} | {kind: "option", typed, given} |
// {kind: "value", option, typed} | null when nothing is being typed.
export function readCommand(text, commands, language) {
  const result = { path: [], shown: [], node: null, options: {}, focus: null, problem: null };
  if (!text.startsWith("/")) return result;
  const tokens = text.slice(1).split(/\s+/);
  const trailing = /\s$/.test(text);
  let items = commands, i = 0;
  while (i < tokens.length) {
    const word = tokens[i];
    const last = i === tokens.length - 1 && !trailing;
    const found = byName(items, word, language);
    if (last || !found) {
      if (word.includes(":") && result.node) break;
      result.focus = { kind: "command", typed: word, choices: items };
      if (!last && !found) result.problem = `/${[...result.shown, word].join(" ")} is not a command`;
      return result;
    }
    result.path.push(found.name);
    result.shown.push(localName(found, language));
    i += 1;
    const children = found.options || [];
    if (children.some((o) => o.type === SUBCOMMAND || o.type === GROUP)) {
      items = children;
      if (i === tokens.length || (i === tokens.length - 1 && tokens[i] === "")) {
        result.focus = { kind: "command", typed: "", choices: items };
        return result;
      }
      continue;
    }
    result.node = found;
    break;
  }
  if (!result.node) return result;
  const definitions = result.node.options || [];
  const rest = text.slice(1).split(/\s+/).slice(result.path.length).join(" ");
  const restText = trailing ? rest + " " : rest;
  // name:value pairs; a value runs until the next " word:"; a bare value fills the next option.
  const pieces = restText.match(/(\S+?:(?:(?!\s\S+?:).)*|\S+\s?)/g) || [];
  let lastPiece = null;
  for (const raw of pieces) {
    const piece = raw.replace(/\s$/, "");
    const colon = piece.indexOf(":");
    let definition = null, value = piece;
    if (colon > 0) {
      definition = byName(definitions, piece.slice(0, colon), language);
      value = piece.slice(colon + 1);
      if (!definition) {
        result.problem = `/${result.path.join(" ")} has no option ${piece.slice(0, colon)}`;
        lastPiece = { kind: "option", typed: piece.slice(0, colon) };
        continue;
      }
    } else {
      definition = definitions.find((d) => !(d.name in result.options));
      if (!definition) {
        result.problem = `/${result.path.join(" ")} has no more options`;
        continue;
      }
      const given = { ...result.options };
      if (raw === piece && !trailing && optionSuggestions(result.node, piece, given, language).length) {
        // Still typing a word that may become an option's name ("se" for seed:).
        lastPiece = { kind: "option", typed: piece, given };
        continue;
      }
    }
    result.options[definition.name] = value.trim();
    lastPiece = { kind: "value", option: definition, typed: value.trim() };
  }
  result.focus = trailing || !lastPiece
    ? { kind: "option", typed: "", given: { ...result.options } }
    : lastPiece;
  return result;
}

// The option names still to give, matching what is typed, required ones first.
export function optionSuggestions(node, typed, given, language) {
  const wanted = typed.toLowerCase();
  return (node.options || [])
    .filter((o) => !(o.name in given))
    .filter((o) => !wanted || o.name.startsWith(wanted) || localName(o, language).toLowerCase().startsWith(wanted))
    .sort((a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)));
}

// A command's path ("onecard start") as the reader's client shows it ("원카드 시작"):
// Discord draws the "used /command" line in the reader's language, not the caller's.
export function localPath(path, commands, language) {
  let items = commands;
  return String(path).split(" ").map((word) => {
    const found = (items || []).find((i) => i.name === word);
    items = found?.options || [];
    return found ? localName(found, language) : word;
  }).join(" ");
}
