// Hints, best plays and analyses as HTML, shared by the table and the position page.
import { cardRow } from "./cards.js";

function el(tag, text = "", className = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Fill `list` (an <ol>) with the hint's steps, and return its one-line summary. */
export function hintSteps(hint, list) {
  list.innerHTML = "";
  if (!hint || !hint.played || !hint.played.length) return "No play: draw (or pass).";
  for (const step of hint.steps || []) list.appendChild(el("li", step));
  return hint.short || `Play ${hint.played.join(" ")}`;
}

/** A best play: the cards to play and the table it leaves, as cards; the groups that are not
 * on the table `before` (when given) are highlighted. */
export function playView(play, before = null) {
  const box = el("div", "", "best-play");
  if (!play || !play.played || !play.played.length) {
    box.appendChild(el("p", "No play: the hand cannot add a card to the table."));
    return box;
  }
  box.appendChild(el("p", `Play ${play.played.length} card(s): ${play.played.join(" ")}`, "played-text"));
  box.appendChild(cardRow(play.played, { small: true }));
  box.appendChild(el("p", "Leaving the table:"));
  const groups = el("div", "", "groups");
  const old = before && before.map((g) => [...g].sort().join(" "));
  for (const group of play.table || []) {
    const g = el("div", "", "group");
    if (old && !old.includes([...group].sort().join(" "))) g.classList.add("changed");
    for (const card of cardRow(group, { small: true }).children) g.appendChild(card.cloneNode(true));
    groups.appendChild(g);
  }
  box.appendChild(groups);
  return box;
}

/** The analysis: best score, the plays, the outs, the stuck cards, and the winning chances
 * when the answer has them (the game table asks for them). */
export function analysisView(analysis) {
  const box = el("div", "", "analysis");
  const best = analysis.best || {};
  box.appendChild(el("p", `Best play: ${best.cards ?? 0} card(s), ${best.points ?? 0} point(s)` +
    (analysis.goes_out ? " — goes out!" : "")));
  const chance = analysis.win_chance;
  if (chance) {
    const pct = (x) => `${Math.round(100 * x)}%`;
    box.appendChild(el("p", `Winning chances: ${pct(chance.chance)} (95% interval ` +
      `${pct(chance.ci95[0])}–${pct(chance.ci95[1])}; the expert playing your hand in ` +
      `${chance.rollouts} deals of the unseen cards)`, "chances"));
  }
  const plays = analysis.plays || [];
  box.appendChild(el("h3", `Plays (${plays.length}${analysis.plays_capped ? "+" : ""})`));
  const list = el("ul");
  for (const play of plays.slice(0, 12)) list.appendChild(el("li", play.join(" ")));
  box.appendChild(list);
  box.appendChild(el("h3", "Outs"));
  const outs = el("ul");
  for (const out of analysis.outs || []) outs.appendChild(el("li", `${out.card}: +${out.more} card(s)`));
  if (!(analysis.outs || []).length) outs.appendChild(el("li", "none"));
  box.appendChild(outs);
  box.appendChild(el("h3", "Stuck cards"));
  const stuck = el("ul");
  for (const s of analysis.stuck || []) stuck.appendChild(el("li", `${s.card}: ${s.needs}`));
  if (!(analysis.stuck || []).length) stuck.appendChild(el("li", "none"));
  box.appendChild(stuck);
  return box;
}

/** Offer `record` (a JSON object) as a file download. */
export function downloadJSON(record, name) {
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
