// The sandbox page: one server of the local Discord, seen as the member chosen at the top.
// Everything the member does goes to the imitation as Discord's client would send it;
// everything shown comes back from it (server-sent events say when to redraw).
import {
  contentHtml, escapeHtml, inlineHtml, localDescription, localName, localPath, optionSuggestions,
  readCommand,
} from "./render.js";

// The page's own words, in the chosen member's language; {start} and {settings} are commands
// named in that language, as Discord's client names them.
const WORDS = {
  en: {
    only: "Only you can see this", used: (who, command) => `${who} used ${command}`,
    failed: "This interaction failed",
    // A reply's header where its message is gone or hidden: the first as the sender sees it in
    // discord-api-docs#2733; the second is Discord's client's wording as we know it (no doc
    // or thread we could read quotes it).
    replyDeleted: "Original message was deleted", replyUnloaded: "Message could not be loaded.",
    placeholder: "Type / for commands, e.g. {start}", you: "You are",
    language: "Your language", serverLanguage: "Server language",
    languageHelp: "Your own Discord app's language: what only you see (your hand, refusals) uses it.",
    serverLanguageHelp: "The server's language (Discord's guild locale): lobbies, tables and "
      + "their buttons use it for everyone, unless {settings} chose one for the server.",
    manager: "Manage Server", moderator: "Manage Messages",
    refused: "Discord would have refused", required: "required",
    cancel: "Cancel", submit: "Submit", empty: "No messages yet. Try {start}",
  },
  ko: {
    only: "나만 볼 수 있어요", used: (who, command) => `${who}님이 ${command} 사용`,
    failed: "상호작용 실패",
    replyDeleted: "원본 메시지가 삭제되었어요", replyUnloaded: "메시지를 불러올 수 없어요.",
    placeholder: "/ 를 입력해 명령어를 찾아요. 예: {start}", you: "나는",
    language: "내 언어", serverLanguage: "서버 언어",
    languageHelp: "내 디스코드 앱의 언어: 나만 보는 답(내 패, 거절 이유)이 이 언어로 나와요.",
    serverLanguageHelp: "서버의 언어(디스코드 서버 기본 언어): 대기실, 테이블과 그 버튼이 "
      + "모두에게 이 언어로 나와요. {settings}로 서버 언어를 정했다면 그 언어가 우선이에요.",
    manager: "서버 관리", moderator: "메시지 관리",
    refused: "디스코드라면 거절했을 요청", required: "필수",
    cancel: "취소", submit: "제출", empty: "아직 메시지가 없어요. {start} 를 입력해 보세요",
  },
};

const state = {
  server: null, member: localStorage.getItem("member"), channel: localStorage.getItem("channel"),
  messages: [], suggestions: [], active: 0, drawing: false, again: false, typedAt: 0,
};
const $ = (id) => document.getElementById(id);

function me() { return state.server.members.find((m) => m.id === state.member); }
function language() { return me()?.language || "en"; }
function words() { return WORDS[language()] || WORDS.en; }
// A command as the member's client names it, with a slash: command("onecard start").
function command(path) { return "/" + localPath(path, state.server?.commands || [], language()); }
function filled(text) {
  return text.replace("{start}", `${command("onecard start")} 4`).replace("{settings}", command("game settings"));
}

async function call(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

// -- drawing ------------------------------------------------------------------------------

function names() {
  const found = {};
  for (const m of state.server.members) found[m.id] = m.name;
  for (const c of state.server.channels) found[c.id] = c.name;
  found[state.server.bot] = "Deckhand";
  return found;
}

function drawChrome() {
  const w = words();
  document.documentElement.lang = language();
  $("server").textContent = state.server.name;
  $("command").placeholder = filled(w.placeholder);
  $("you").textContent = w.you;
  $("language-label").textContent = w.language;
  $("language-box").title = w.languageHelp;
  $("server-language-label").textContent = w.serverLanguage;
  $("server-language-box").title = filled(w.serverLanguageHelp);
  $("member").replaceChildren(...state.server.members.map((m) => {
    const role = m.manager ? w.manager : m.moderator ? w.moderator : "";
    const option = new Option(role ? `${m.name} (${role})` : m.name, m.id);
    option.selected = m.id === state.member;
    return option;
  }));
  $("language").value = language();
  $("server-language").value = state.server.language;
  document.body.dataset.serverLanguage = state.server.language;  // the browser test waits on it
  $("channels").replaceChildren(...state.server.channels.map((c) => {
    const button = document.createElement("button");
    button.textContent = c.name;
    button.className = c.id === state.channel ? "current" : "";
    button.onclick = () => { state.channel = c.id; localStorage.setItem("channel", c.id); $("channels").classList.remove("open"); redraw(); };
    return button;
  }));
  const refused = state.server.refused;
  $("refused").hidden = refused.length === 0;
  $("refused").textContent = refused.length ? `${w.refused}: ${refused.map((r) => r.detail).join(" · ")}` : "";
}

function component(item, message) {
  if (item.type === 2) {
    const button = document.createElement("button");
    button.textContent = (item.emoji?.name ? item.emoji.name + " " : "") + (item.label || "");
    button.className = `style-${item.style || 2}`;
    button.disabled = Boolean(item.disabled);
    button.onclick = () => act("/api/click", { message: message.id, custom_id: item.custom_id });
    return button;
  }
  if (item.type === 3) {
    const select = document.createElement("select");
    select.disabled = Boolean(item.disabled);
    const hint = new Option(item.placeholder || "…", "");
    hint.disabled = hint.selected = true;
    select.append(hint, ...(item.options || []).map((o) => {
      const option = new Option(o.description ? `${o.label} — ${o.description}` : o.label, o.value);
      return option;
    }));
    select.onchange = () => act("/api/select", { message: message.id, custom_id: item.custom_id, values: [select.value] });
    return select;
  }
  return document.createTextNode("");
}

// The line Discord's client draws above a reply: the replied-to message's author and first
// line, or why it cannot be shown (the server says which, for the member reading).
function replyHeader(reply, lookup) {
  const w = words();
  if (reply.deleted) return `<div class="reply missing">${escapeHtml(w.replyDeleted)}</div>`;
  if (reply.unloaded) return `<div class="reply missing">${escapeHtml(w.replyUnloaded)}</div>`;
  return `<div class="reply"><b>@${escapeHtml(reply.author)}</b><span>${inlineHtml(reply.text, lookup)}</span></div>`;
}

function messageItem(message, lookup) {
  const w = words();
  const li = document.createElement("li");
  if (message.pinged) li.className = "pinged";
  let html = "";
  if (message.reply) html += replyHeader(message.reply, lookup);
  if (message.used) html += `<div class="used">${escapeHtml(w.used(message.used.member, command(message.used.command)))}</div>`;
  html += `<div class="meta"><b>${escapeHtml(message.bot ? "Deckhand" : message.author)}</b>${message.bot ? '<span class="app">APP</span>' : ""}</div>`;
  html += `<div class="body">${contentHtml(message.content, lookup)}</div>`;
  for (const embed of message.embeds || []) {
    html += `<div class="embed">${embed.title ? `<b>${escapeHtml(embed.title)}</b><br>` : ""}${contentHtml(embed.description || "", lookup)}</div>`;
  }
  li.innerHTML = html;
  for (const row of message.components || []) {
    const div = document.createElement("div");
    div.className = "row";
    for (const item of row.components || [row]) div.append(component(item, message));
    li.append(div);
  }
  if (message.ephemeral) {
    const note = document.createElement("div");
    note.className = "ephemeral-note";
    note.textContent = w.only;
    li.append(note);
  }
  return li;
}

async function redraw() {
  if (state.drawing) { state.again = true; return; }
  state.drawing = true;
  try {
    state.server = await call("/api/server");
    if (!state.server.members.some((m) => m.id === state.member)) state.member = state.server.members[0]?.id;
    if (!state.server.channels.some((c) => c.id === state.channel)) state.channel = state.server.channels[0]?.id;
    drawChrome();
    const reader = state.member;
    const data = await call(`/api/messages?channel=${state.channel}&member=${reader}`);
    const list = $("messages");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    const lookup = names();
    if (data.messages.length === 0) {
      const li = document.createElement("li");
      li.className = "meta";
      li.textContent = filled(words().empty);
      list.replaceChildren(li);
    } else {
      list.replaceChildren(...data.messages.map((m) => messageItem(m, lookup)));
    }
    if (atBottom) list.scrollTop = list.scrollHeight;
    list.dataset.member = reader;  // whose view is on screen (the browser test waits for it)
  } catch (error) {
    problem(error.message);
  } finally {
    state.drawing = false;
    if (state.again) { state.again = false; redraw(); }
  }
}

// -- acting -------------------------------------------------------------------------------

async function act(path, body) {
  problem("");
  try {
    const answer = await call(path, { member: state.member, channel: state.channel, ...body });
    if (answer.failed) problem(words().failed);
    if (answer.modal) openModal(answer.modal);
  } catch (error) {
    problem(error.message);
  }
  redraw();
}

function openModal(modal) {
  const w = words();
  $("modal-title").textContent = modal.title || "";
  const inputs = [];
  const fields = [];
  for (const row of modal.components || []) {
    const item = row.component || (row.components || [])[0];
    if (!item || item.type !== 4) continue;
    const label = document.createElement("label");
    label.textContent = row.label || item.label || "";
    const input = item.style === 2 ? document.createElement("textarea") : document.createElement("input");
    input.value = item.value || "";
    input.placeholder = item.placeholder || "";
    input.required = item.required !== false;
    if (item.max_length) input.maxLength = item.max_length;
    if (item.min_length) input.minLength = item.min_length;
    inputs.push([item.custom_id, input]);
    fields.push(label, input);
  }
  $("modal-inputs").replaceChildren(...fields);
  $("modal-cancel").textContent = w.cancel;
  $("modal-submit").textContent = w.submit;
  const dialog = $("modal");
  $("modal-form").onsubmit = (event) => {
    event.preventDefault();
    dialog.close();
    const values = Object.fromEntries(inputs.map(([id, input]) => [id, input.value]));
    act("/api/modal", { interaction: modal.interaction, values });
  };
  $("modal-cancel").onclick = () => dialog.close();
  dialog.showModal();
}

// -- the command bar ----------------------------------------------------------------------

function showSuggestions(items) {
  state.suggestions = items;
  state.active = 0;
  const list = $("suggestions");
  list.hidden = items.length === 0;
  list.replaceChildren(...items.map((item, i) => {
    const li = document.createElement("li");
    li.className = i === 0 ? "active" : "";
    li.innerHTML = `<span>${escapeHtml(item.label)}</span><span class="what">${escapeHtml(item.what || "")}</span>`;
    li.onmousedown = (event) => { event.preventDefault(); accept(item); };
    return li;
  }));
}

function accept(item) {
  const input = $("command");
  input.value = input.value.replace(/\S*$/, item.insert);
  input.focus();
  suggest();
}

async function suggest() {
  const text = $("command").value;
  const lang = language();
  const read = readCommand(text, state.server.commands, lang);
  const focus = read.focus;
  if (!focus) { showSuggestions([]); return; }
  if (focus.kind === "command") {
    const typed = focus.typed.toLowerCase();
    showSuggestions(focus.choices
      .filter((c) => c.name.startsWith(typed) || localName(c, lang).toLowerCase().startsWith(typed))
      .map((c) => ({ label: "/" + [...read.shown, localName(c, lang)].join(" "), what: localDescription(c, lang), insert: (read.path.length ? "" : "/") + localName(c, lang) + " " })));
    return;
  }
  if (focus.kind === "option") {
    const w = words();
    showSuggestions(optionSuggestions(read.node, focus.typed, focus.given || {}, lang).map((o) => ({
      label: localName(o, lang) + ":", what: (o.required ? `(${w.required}) ` : "") + localDescription(o, lang), insert: localName(o, lang) + ":",
    })));
    return;
  }
  const option = focus.option;
  if (option.choices) {
    const typed = focus.typed.toLowerCase();
    showSuggestions(option.choices
      .filter((c) => !typed || localName(c, lang).toLowerCase().includes(typed) || String(c.value).startsWith(typed))
      .map((c) => ({ label: localName(c, lang), what: "", insert: `${localName(option, lang)}:${localName(c, lang)} ` })));
    return;
  }
  if (option.autocomplete) {
    showSuggestions([]);  // the option names shown a moment ago no longer apply
    const asked = Date.now();
    state.typedAt = asked;
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (state.typedAt !== asked) return;  // typing went on; a newer request follows
    try {
      const data = await call("/api/autocomplete", {
        member: state.member, channel: state.channel, command: read.path.join(" "),
        option: option.name, typed: focus.typed, options: read.options,
      });
      if (state.typedAt !== asked) return;
      showSuggestions(data.choices.map((c) => ({ label: c.name, what: "", insert: `${localName(option, lang)}:${c.value} ` })));
    } catch (error) {
      problem(error.message);
    }
    return;
  }
  showSuggestions([{ label: localName(option, lang) + ":", what: localDescription(option, lang), insert: `${localName(option, lang)}:${focus.typed}` }]);
}

function submit() {
  const text = $("command").value.trim();
  if (!text) return;
  const read = readCommand(text + " ", state.server.commands, language());
  if (read.problem) { problem(read.problem); return; }
  if (!read.node) { problem(`/${read.path.join(" ")}: choose a subcommand`); return; }
  $("command").value = "";
  showSuggestions([]);
  act("/api/command", { command: read.path.join(" "), options: read.options });
}

function keydown(event) {
  const items = state.suggestions;
  if (items.length && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
    event.preventDefault();
    state.active = (state.active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
    [...$("suggestions").children].forEach((li, i) => { li.className = i === state.active ? "active" : ""; });
  } else if (items.length && event.key === "Tab") {
    event.preventDefault();
    accept(items[state.active]);
  } else if (event.key === "Escape") {
    showSuggestions([]);
  }
}

// -- start --------------------------------------------------------------------------------

$("bar").onsubmit = (event) => { event.preventDefault(); submit(); };
$("command").oninput = () => { problem(""); suggest(); };
$("command").onkeydown = keydown;
$("command").onblur = () => setTimeout(() => showSuggestions([]), 150);
$("member").onchange = () => { state.member = $("member").value; localStorage.setItem("member", state.member); redraw(); };
$("language").onchange = () => act("/api/language", { language: $("language").value });
$("server-language").onchange = () => act("/api/server-language", { language: $("server-language").value });
$("menu").onclick = () => $("channels").classList.toggle("open");
new EventSource("/api/events").addEventListener("change", () => redraw());
redraw();
