// The table: the game seen from one person seat, moves made as at a real table.
import { aceRule, cardElement, cardKey, normaliseCard, parseCards } from "./cards.js";
import { Staging } from "./staging.js";
import { Client } from "./ws.js";
import { analysisView, downloadJSON, hintSteps } from "./advice.js";
import { renderLog, renderPlayers, renderResults } from "./scoreboard.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const mySeat = Number(params.get("seat") || 0);
const client = new Client(`/ws/game/${encodeURIComponent(gameId)}?token=${encodeURIComponent(params.get("token") || "")}`);
window.tableClient = client; // for the browser console (and the tests that drop the connection)

let state = null;
let staging = null;
let selected = new Set();
let sortBy = "suit";
let hint = null;
let busy = false;
const CHANCE_ROLLOUTS = 100; // the analysis's winning chances: about 2 s of the expert's rollouts

const observation = () => (state && state.observation) || {};
const legal = () => (state && !state.over && myTurn() ? observation().legal || [] : []);
const myTurn = () => state && !state.over && state.to_move === mySeat;
const variant = () => (state && (state.variant || observation().variant)) || "machiavelli";

function say(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function seatName(i) {
  const seat = (state.seats || [])[i];
  if (i === mySeat) return "You";
  if (!state) return `Seat ${i + 1}`;
  if (seat && typeof seat === "object") return seat.name || seat.kind || `Seat ${i + 1}`;
  return seat === "person" || seat === "client" ? `Player ${i + 1}` : seat || `Seat ${i + 1}`;
}

// ---- state from the server ----

function applyState(next) {
  const obs = next.observation || {};
  const table = obs.table || next.table || [];
  const hand = obs.hand || next.hand || [];
  const same = staging && JSON.stringify([staging.baseTable, staging.baseHand]) === JSON.stringify([table, hand]);
  state = next;
  document.body.dataset.states = String(Number(document.body.dataset.states || 0) + 1);
  if (!same) {
    staging = new Staging(table, hand, aceRule(variant(), {}));
    selected.clear();
    clearHint();
  }
  render();
}

function clearHint() {
  hint = null;
  $("hint-panel").classList.add("hidden");
}

// ---- rendering ----

function render() {
  if (!state) return;
  // For tests and styles: whose turn it is.
  document.body.dataset.turn = state.over ? "over" : myTurn() ? "mine" : "theirs";
  $("variant-name").textContent = variant();
  renderStatus();
  renderPlayers($("players"), state, seatName);
  renderGroups();
  renderHand();
  renderButtons();
  renderLog($("log"), $("log-view"), state, seatName);
  renderResults($("results-panel"), $("results"), state, seatName);
}

function renderStatus() {
  let text;
  if (state.over) text = `The game is over: ${winners()}.`;
  else if (myTurn()) text = turnText(legal());
  else text = `Waiting for ${seatName(state.to_move)}…`;
  $("status").textContent = text;
}

function winners() {
  const won = (state.results || []).map((r, i) => (r.winner ? seatName(i) : null)).filter(Boolean);
  if (!won.length) return "no winner";
  return won.length === 1 ? `${won[0]} ${won[0] === "You" ? "win" : "wins"}` : `${won.join(" and ")} win`;
}

function turnText(can) {
  if (can.includes("give_up") && !can.includes("draw")) return "Your turn: finish a valid play, or give up (+3 cards).";
  if (!can.includes("play")) return `Your turn: ${can.includes("draw") ? "draw a card" : "pass"}.`;
  return "Your turn.";
}

/** The groups the last play changed (draws and passes leave the table as it was). */
function lastChanged() {
  const plays = (state.log || []).filter((entry) => (entry.action || entry).type === "play");
  const last = plays[plays.length - 1];
  return last && staging.untouched ? new Set(last.changed || []) : new Set();
}

function renderGroups() {
  const box = $("groups");
  box.innerHTML = "";
  const changed = lastChanged();
  const hinted = new Set(((hint && hint.changed_groups) || []).map((n) => n - 1));
  staging.groups.forEach((group, g) => {
    const div = document.createElement("div");
    const status = staging.status(group);
    div.className = `group ${status}${changed.has(g) ? " changed" : ""}${hinted.has(g) && staging.untouched ? " hinted" : ""}`;
    div.dataset.group = g;
    div.innerHTML = `<span class="gnum">${g + 1}</span>`;
    for (const it of group) div.appendChild(cardNode(it, it.fromHand ? "from-hand" : ""));
    dropTarget(div, (ids) => moveTo(ids, g));
    div.addEventListener("click", (e) => { if (e.target === div) moveTo([...selected], g); });
    box.appendChild(div);
  });
  const fresh = document.createElement("div");
  fresh.className = "new-group";
  fresh.textContent = "+ new group";
  dropTarget(fresh, (ids) => moveTo(ids, "new"));
  fresh.addEventListener("click", () => moveTo([...selected], "new"));
  box.appendChild(fresh);
}

function renderHand() {
  const box = $("hand");
  box.innerHTML = "";
  const hintCards = [...((hint && hint.played) || [])];
  const items = [...staging.hand].sort((a, b) => cardKey(a.card, sortBy) - cardKey(b.card, sortBy));
  for (const it of items) {
    const k = hintCards.indexOf(it.card);
    if (k >= 0) hintCards.splice(k, 1);
    box.appendChild(cardNode(it, k >= 0 ? "hinted" : ""));
  }
  dropTarget(box, (ids) => { staging.backToHand(ids); selected.clear(); render(); });
}

function cardNode(it, extra) {
  const node = cardElement(it.card);
  node.dataset.id = it.id;
  if (extra) node.classList.add(extra);
  if (selected.has(it.id)) node.classList.add("selected");
  node.draggable = myTurn();
  node.addEventListener("click", (e) => { e.stopPropagation(); clickCard(it.id); });
  node.addEventListener("dragstart", (e) => {
    if (!selected.has(it.id)) { selected.clear(); selected.add(it.id); }
    e.dataTransfer.setData("text/plain", [...selected].join(","));
    e.dataTransfer.effectAllowed = "move";
    node.classList.add("dragging");
  });
  node.addEventListener("dragend", () => node.classList.remove("dragging"));
  return node;
}

function dropTarget(node, onDrop) {
  node.addEventListener("dragover", (e) => { e.preventDefault(); node.classList.add("drop-over"); });
  node.addEventListener("dragleave", () => node.classList.remove("drop-over"));
  node.addEventListener("drop", (e) => {
    e.preventDefault();
    e.stopPropagation();
    node.classList.remove("drop-over");
    const ids = (e.dataTransfer.getData("text/plain") || "").split(",").filter(Boolean);
    onDrop(ids.length ? ids : [...selected]);
  });
}

function renderButtons() {
  const can = legal();
  const mine = myTurn() && !busy;
  const giveUp = can.includes("give_up") && !can.includes("draw");
  $("done").disabled = !mine || !can.includes("play") || staging.untouched;
  $("reset").textContent = giveUp ? "Give up (+3)" : "Reset";
  $("reset").classList.toggle("danger", giveUp);
  $("reset").disabled = !mine || (!giveUp && staging.untouched);
  $("draw").disabled = !mine || !can.includes("draw") || !staging.untouched;
  $("pass").disabled = !mine || !can.includes("pass") || !staging.untouched;
  for (const id of ["place", "hint", "analyze"]) $(id).disabled = !mine;
  $("knock-box").classList.toggle("hidden", !variant().startsWith("carousel"));
  $("sort").textContent = `by ${sortBy}`;
}

// ---- moving cards ----

function clickCard(id) {
  if (!myTurn()) return;
  const found = staging.find(id);
  const target = staging.groups.indexOf(found.list);
  const outside = [...selected].filter((s) => staging.groups.indexOf(staging.find(s)?.list) !== target);
  if (target >= 0 && outside.length && !selected.has(id)) return moveTo(outside, target);
  if (selected.has(id)) selected.delete(id); else selected.add(id);
  render();
}

function nameJoker() {
  const text = prompt("Name the joker (the card it stands for, e.g. 7H):");
  try { return text ? `*${normaliseCard(text)}` : null; } catch { say(`not a card: ${text}`, true); return null; }
}

function moveTo(ids, target) {
  if (!myTurn() || !ids.length) return;
  staging.moveTo(ids, target, nameJoker);
  selected.clear();
  say(staging.valid ? "" : "Some groups are not valid yet (marked red).", !staging.valid);
  render();
}

// ---- commands ----

async function send(cmd, fields = {}) {
  busy = true;
  renderButtons();
  const answer = await client.request(cmd, fields);
  busy = false;
  if (!answer.ok) say(answer.error || "refused", true);
  else say("");
  return answer;
}

async function move(action) {
  const answer = await send("move", { action });
  if (answer.ok) applyState(answer);
  else await refresh();
  return answer;
}

async function refresh() {
  const answer = await client.request("state");
  if (answer.ok) applyState(answer);
}

async function done() {
  const answer = await move(staging.action($("knock").checked));
  if (!answer.ok) render();
}

async function resetOrGiveUp() {
  if ($("reset").textContent.startsWith("Give up")) return move({ type: "give_up" });
  staging.reset();
  selected.clear();
  say("");
  render();
}

async function autoPlace(cards) {
  if (!cards.length) return say("Select hand cards first (click them), then Auto-place.", true);
  const answer = await send("place", { cards });
  if (!answer.ok) return render();
  staging.stage(answer.play.table, answer.play.played);
  selected.clear();
  say(`Arranged ${answer.play.played.join(" ")}: press Done to play it.`);
  render();
}

function selectedHandCards() {
  return staging.hand.filter((i) => selected.has(i.id)).map((i) => i.card);
}

async function showHint() {
  const answer = await send("hint");
  if (!answer.ok) return render();
  hint = answer.hint;
  $("hint-short").textContent = hintSteps(hint, $("hint-steps"));
  $("hint-play").classList.toggle("hidden", !(hint && hint.played && hint.played.length));
  $("hint-panel").classList.remove("hidden");
  render();
}

function layOutHint() {
  if (!hint || !hint.played) return;
  staging.stage(hint.table, hint.played);
  selected.clear();
  say("The hint is laid out: press Done to play it.");
  render();
}

async function showAnalysis() {
  say(`Analysing, with the expert's winning chances over ${CHANCE_ROLLOUTS} played-out deals…`);
  const answer = await send("analyze", { rollouts: CHANCE_ROLLOUTS });
  if (!answer.ok) return render();
  $("analysis").innerHTML = "";
  $("analysis").appendChild(analysisView(answer.analysis));
  $("analysis-panel").classList.remove("hidden");
  render();
}

async function save() {
  const answer = await send("save");
  if (answer.ok) downloadJSON(answer.record, `machiavelli-${gameId.slice(0, 8)}.json`);
  render();
}

async function typed(text) {
  const word = text.trim().toLowerCase();
  const commands = { draw: () => move({ type: "draw" }), pass: () => move({ type: "pass" }),
    done, reset: resetOrGiveUp, hint: showHint, "give up": () => move({ type: "give_up" }) };
  if (commands[word]) return commands[word]();
  let cards;
  try { cards = parseCards(text); } catch (e) { return say(e.message, true); }
  await autoPlace(cards);
}

function showLinks() {
  const links = JSON.parse(sessionStorage.getItem("tableLinks") || "[]");
  if (!links.length) return;
  const base = `${location.protocol}//${location.host}`;
  $("links").innerHTML = links.map((l) => `<li><a href="${l}">${base}${l}</a></li>`).join("");
  $("links-panel").classList.remove("hidden");
}

function bind() {
  $("done").addEventListener("click", done);
  $("reset").addEventListener("click", resetOrGiveUp);
  $("draw").addEventListener("click", () => move({ type: "draw" }));
  $("pass").addEventListener("click", () => move({ type: "pass" }));
  $("place").addEventListener("click", () => autoPlace(selectedHandCards()));
  $("hint").addEventListener("click", showHint);
  $("hint-play").addEventListener("click", layOutHint);
  $("analyze").addEventListener("click", showAnalysis);
  $("save").addEventListener("click", save);
  $("sort").addEventListener("click", () => { sortBy = sortBy === "suit" ? "rank" : "suit"; render(); });
  $("keys").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    const text = e.target.value;
    e.target.value = "";
    typed(text);
  });
}

async function init() {
  bind();
  showLinks();
  if (!gameId) return say("No game in the link: start one from the lobby.", true);
  client.onPush((message) => applyState(message));
  client.onClose((reason) => say(reason, true));
  client.onReopen(() => { say("Reconnected."); refresh(); });
  await refresh();
}

init();
