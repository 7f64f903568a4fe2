// The record viewer: open a game record and step through it, forward and back.
import { cardBack, cardElement, cardRow } from "./cards.js";
import { describeEvent } from "./events.js";
import { postJSON } from "./ws.js";

const $ = (id) => document.getElementById(id);
let steps = [];
let players = [];
let at = 0;

function say(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function describe(event) {
  if (!event) return "The deal.";
  return `${describeEvent(event, players[event.player] || `Player ${event.player + 1}`)}.`;
}

function changedGroups(step, previous) {
  if (!previous) return new Set();
  const before = previous.table.map((g) => [...g].sort().join(" "));
  return new Set(step.table.map((g, i) => (before.includes([...g].sort().join(" ")) ? -1 : i)));
}

function show(index) {
  at = Math.max(0, Math.min(steps.length - 1, index));
  const step = steps[at];
  $("counter").textContent = `move ${at} of ${steps.length - 1}`;
  $("event").textContent = describe(step.event);
  $("stock").textContent = `— stock: ${step.stock_size ?? "?"} cards`;
  const changed = changedGroups(step, steps[at - 1]);
  $("groups").innerHTML = step.table.length ? "" : `<p class="empty">No groups on the table yet.</p>`;
  step.table.forEach((group, g) => {
    const div = document.createElement("div");
    div.className = `group${changed.has(g) ? " changed" : ""}`;
    for (const card of group) div.appendChild(cardElement(card));
    $("groups").appendChild(div);
  });
  renderHands(step);
  $("prev").disabled = $("first").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === steps.length - 1;
}

function renderHands(step) {
  $("hands").innerHTML = "";
  (step.hands || []).forEach((hand, i) => {
    const size = (step.hand_sizes || [])[i] ?? hand.length;
    const div = document.createElement("div");
    div.className = `player${step.to_move === i ? " to-move" : ""}`;
    div.style.marginBottom = "8px";
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = `${players[i] || `Player ${i + 1}`} — ${size} card${size === 1 ? "" : "s"}`;
    // A saved view shows only its own hand: the others' cards are face down.
    const cards = hand.length || !size ? cardRow(hand, { small: true }) : hiddenHand(size);
    div.append(name, cards);
    $("hands").appendChild(div);
  });
}

function hiddenHand(size) {
  const row = document.createElement("div");
  row.className = "card-row";
  for (let k = 0; k < size; k++) {
    const back = cardBack();
    back.classList.add("small");
    row.appendChild(back);
  }
  return row;
}

async function open(file) {
  let record;
  try { record = JSON.parse(await file.text()); } catch { return say("this file is not JSON", true); }
  const answer = await postJSON("/api/replay", { record });
  if (!answer.ok) return say(answer.error || "the server refused the record", true);
  steps = answer.steps;
  players = record.players || [];
  say(`${file.name}: ${record.variant || ""}, ${steps.length - 1} moves.`);
  $("viewer").classList.remove("hidden");
  show(0);
}

$("file").addEventListener("change", (e) => { if (e.target.files[0]) open(e.target.files[0]); });
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(steps.length - 1));
document.addEventListener("keydown", (e) => {
  if (!steps.length || e.target.tagName === "INPUT") return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 };
  if (e.key in moves) show(moves[e.key]);
});
