// The position editor: build a table and a hand, then ask for the best play, a hint or the
// analysis over /ws/position. The position lives in the URL's fragment (its text form).
import { aceRule, cardElement, cardKey, parsePosition, positionText, RANKS, SUITS } from "./cards.js";
import { groupStatus, orderGroup } from "./groups.js";
import { Client } from "./ws.js";
import { analysisView, hintSteps, playView } from "./advice.js";

const $ = (id) => document.getElementById(id);
const client = new Client("/ws/position");
let position = { table: [], hand: [], variant: "machiavelli" };
let target = "hand"; // "hand" or a group index

function say(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function variantText() {
  const options = $("variant-options").value.trim();
  return options ? `${$("variant").value}:${options}` : $("variant").value;
}

function changed() {
  position.variant = variantText();
  const ace = aceRule(position.variant);
  position.table = position.table.filter((g) => g.length).map((g) => orderGroup(g, ace));
  const text = positionText(position);
  $("text").value = text;
  history.replaceState(null, "", `#${encodeURIComponent(text)}`);
  $("result").innerHTML = ""; // an answer for another position would mislead
  render();
}

function render() {
  const ace = aceRule(position.variant);
  const groups = $("groups");
  groups.innerHTML = "";
  position.table.forEach((group, g) => {
    const div = document.createElement("div");
    div.className = `group ${groupStatus(group, ace)}${target === g ? " hinted" : ""}`;
    div.dataset.group = g;
    div.innerHTML = `<span class="gnum">${g + 1}</span>`;
    group.forEach((card, i) => div.appendChild(removable(card, () => group.splice(i, 1))));
    div.addEventListener("click", (e) => { if (e.target === div) { target = g; render(); } });
    groups.appendChild(div);
  });
  const hand = $("hand");
  hand.innerHTML = "";
  const sorted = [...position.hand].sort((a, b) => cardKey(a) - cardKey(b));
  sorted.forEach((card) => hand.appendChild(removable(card, () =>
    position.hand.splice(position.hand.indexOf(card), 1))));
  $("target-label").textContent = target === "hand" ? "— click a card to add it to the hand"
    : `— click a card to add it to group ${target + 1}`;
}

function removable(card, remove) {
  const node = cardElement(card);
  node.title = `${card}: click to remove`;
  node.addEventListener("click", (e) => {
    e.stopPropagation();
    remove();
    if (typeof target === "number" && !position.table[target]?.length) target = "hand";
    changed();
  });
  return node;
}

function buildPicker() {
  const picker = $("picker");
  for (const suit of SUITS) {
    for (const rank of RANKS) picker.appendChild(pickable(rank + suit));
  }
  picker.appendChild(pickable("*"));
}

function pickable(card) {
  const node = cardElement(card, { small: true });
  node.title = `add ${card}`;
  node.addEventListener("click", () => {
    if (target === "hand") position.hand.push(card);
    else if (card !== "*") position.table[target].push(card);
    else return say("a joker on the table names its card: type it as *7H in the text", true);
    say("");
    changed();
  });
  return node;
}

function setFromText(text) {
  try {
    position = parsePosition(text);
  } catch (e) {
    return say(e.message, true);
  }
  const [name, options = ""] = position.variant.split(":");
  if (![...$("variant").options].some((o) => o.value === name)) $("variant").add(new Option(name, name));
  $("variant").value = name;
  $("variant-options").value = options;
  target = "hand";
  say("");
  changed();
}

async function ask(cmd) {
  $("result").innerHTML = "<p>Thinking…</p>";
  const set = await client.request("position", { position: positionText(position) });
  const answer = set.ok ? await client.request(cmd) : set;
  $("result").innerHTML = "";
  if (!answer.ok) {
    $("result").innerHTML = `<p class="message error"></p>`;
    $("result").firstChild.textContent = answer.error;
    return;
  }
  $("result").appendChild(resultView(cmd, answer));
}

function resultView(cmd, answer) {
  const box = document.createElement("div");
  box.id = `result-${cmd}`;
  if (cmd === "solve") {
    box.innerHTML = "<h2>Best play</h2>";
    box.appendChild(playView(answer.solution, position.table));
  } else if (cmd === "hint") {
    box.innerHTML = "<h2>Hint</h2><p></p><ol class=\"steps\"></ol>";
    box.querySelector("p").textContent = hintSteps(answer.hint, box.querySelector("ol"));
    const hint = answer.hint;
    if (hint && hint.played && hint.played.length) box.appendChild(playView(hint, position.table));
  } else {
    box.innerHTML = "<h2>Analysis</h2>";
    box.appendChild(analysisView(answer.analysis));
  }
  return box;
}

async function init() {
  buildPicker();
  let names = ["machiavelli"];
  try {
    const info = await (await fetch("/api/info")).json();
    names = (info.variants || names).map((v) => (typeof v === "object" ? v.name : v));
  } catch { say("the server did not answer /api/info", true); }
  for (const name of names) $("variant").add(new Option(name, name));
  $("variant").addEventListener("change", changed);
  $("variant-options").addEventListener("change", changed);
  $("load").addEventListener("click", () => setFromText($("text").value));
  $("text").addEventListener("keydown", (e) => { if (e.key === "Enter") setFromText($("text").value); });
  $("clear").addEventListener("click", () => setFromText(""));
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); say("Link copied."); } catch { say(location.href); }
  });
  $("target-hand").addEventListener("click", () => { target = "hand"; render(); });
  $("target-table").addEventListener("click", () => { position.table.push([]); target = position.table.length - 1; render(); });
  for (const cmd of ["solve", "hint", "analyze"]) $(cmd).addEventListener("click", () => ask(cmd));
  window.addEventListener("hashchange", () => setFromText(decodeURIComponent(location.hash.slice(1))));
  setFromText(decodeURIComponent(location.hash.slice(1)) || "");
}

init();
