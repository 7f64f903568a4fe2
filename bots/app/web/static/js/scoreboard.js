// Around the table: the players and the stock, the log of moves, the results at the end.
// `name(i)` gives seat i's name as this page shows it ("You" for the page's own seat).
import { cardBack } from "./cards.js";
import { playView } from "./advice.js";
import { describeEvent } from "./events.js";

const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;

/** One box per player (hand size; the player to move outlined), then the stock. */
export function renderPlayers(box, state, name) {
  box.innerHTML = "";
  const observation = state.observation || {};
  const sizes = state.hand_sizes || observation.hand_sizes || [];
  sizes.forEach((size, i) => {
    const p = document.createElement("div");
    p.className = `player${!state.over && state.to_move === i ? " to-move" : ""}`;
    p.dataset.seat = i;
    p.innerHTML = `<div class="name"></div><div class="count">${cards(size)}</div>`;
    p.querySelector(".name").textContent = name(i);
    box.appendChild(p);
  });
  const stock = document.createElement("div");
  stock.className = "player stock";
  const n = state.stock_size ?? observation.stock_size ?? 0;
  stock.append(cardBack(String(n)));
  stock.title = `${cards(n)} in the stock`;
  stock.insertAdjacentHTML("beforeend", `<div class="count">stock</div>`);
  box.appendChild(stock);
}

/** The public moves, newest at the bottom; a click on a play shows the table it left in
 * `view`, with the groups it changed lit. */
export function renderLog(box, view, state, name) {
  box.innerHTML = "";
  (state.log || []).forEach((entry, i) => {
    const row = document.createElement("div");
    row.className = "entry";
    row.textContent = `${i + 1}. ${describeEvent(entry, name(entry.player))}`;
    row.addEventListener("click", () => showEntry(box, view, entry, row));
    box.appendChild(row);
  });
  box.scrollTop = box.scrollHeight;
}

function showEntry(box, view, entry, row) {
  box.querySelectorAll(".entry.active").forEach((r) => r.classList.remove("active"));
  row.classList.add("active");
  const action = entry.action || entry;
  view.innerHTML = "";
  if (action.type !== "play") return;
  const shown = playView(action);
  const changed = new Set(entry.changed || []);
  shown.querySelectorAll(".group").forEach((g, i) => g.classList.toggle("changed", changed.has(i)));
  view.appendChild(shown);
}

/** The final scores (shown once the game is over). */
export function renderResults(panel, table, state, name) {
  panel.classList.toggle("hidden", !state.over);
  if (!state.over) return;
  table.innerHTML = "<tr><th>Player</th><th>Score</th><th></th></tr>";
  (state.results || []).forEach((result, i) => {
    const row = table.insertRow();
    row.insertCell().textContent = name(i);
    row.insertCell().textContent = String(result.score);
    row.insertCell().textContent = result.winner ? "★ winner" : "";
  });
}
