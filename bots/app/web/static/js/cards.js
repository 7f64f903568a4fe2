// Cards: parsing the text forms of docs/rules.md §1 and rendering real-looking cards.
export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const FROM_SYMBOL = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

/** Normalise one card text ("10h", "T♥", "*7h", "*") to the engine's ASCII form, or throw. */
export function normaliseCard(text) {
  let t = String(text).trim().toUpperCase();
  if (t === "*") return "*";
  const joker = t.startsWith("*");
  if (joker) t = t.slice(1);
  let suit = t.slice(-1);
  suit = FROM_SYMBOL[suit] || suit;
  let rank = t.slice(0, -1);
  if (rank === "T" || rank === "1") rank = "10";
  if (!SUITS.includes(suit) || !RANKS.includes(rank)) throw new Error(`not a card: ${text}`);
  return (joker ? "*" : "") + rank + suit;
}

/** Parse "5C 6C 7C" or "5C,6C,7C" into a list of card texts. */
export function parseCards(text) {
  return String(text).split(/[\s,]+/).filter(Boolean).map(normaliseCard);
}

/** Parse a table "5C 6C 7C | 8S 8D 8H" into a list of groups. */
export function parseTable(text) {
  return String(text).split("|").map(parseCards).filter((g) => g.length);
}

/** The text form of a table. */
export function tableText(groups) {
  return groups.map((g) => g.join(" ")).join(" | ");
}

/** Rank (1..13), suit and joker flag of a card text; a bare joker has rank 0. */
export function cardParts(text) {
  if (text === "*") return { joker: true, rank: 0, suit: "" };
  const joker = text.startsWith("*");
  const body = joker ? text.slice(1) : text;
  return { joker, rank: RANKS.indexOf(body.slice(0, -1)) + 1, suit: body.slice(-1) };
}

/** Sort key of a card: by suit then rank, or by rank then suit (a bare joker last). */
export function cardKey(card, by = "suit") {
  const p = cardParts(card);
  if (p.joker && !p.rank) return 1000;
  const s = SUITS.indexOf(p.suit);
  return by === "suit" ? s * 20 + p.rank : p.rank * 10 + s;
}

/** The cards sorted by suit or by rank. */
export function sortCards(cards, by = "suit") {
  return [...cards].sort((a, b) => cardKey(a, by) - cardKey(b, by));
}

/** A card element: rank and suit symbol in the corners, a big pip in the middle. */
export function cardElement(text, opts = {}) {
  const el = document.createElement("div");
  const p = cardParts(text);
  const red = p.suit === "H" || p.suit === "D";
  el.className = `card ${red ? "red" : "black"}${p.joker ? " joker" : ""}${opts.small ? " small" : ""}`;
  el.dataset.card = text;
  el.title = text;
  const rank = p.rank ? RANKS[p.rank - 1] : "";
  const sym = p.suit ? SYMBOL[p.suit] : "";
  const corner = p.joker && !p.rank ? "★" : `${rank}<br>${sym}`;
  const centre = p.joker ? "★" : sym;
  el.innerHTML = `<span class="corner tl">${corner}</span><span class="pip">${centre}</span>` +
    `<span class="corner br">${corner}</span>`;
  return el;
}

/** A face-down card (the stock, opponents' hands). */
export function cardBack(label = "") {
  const el = document.createElement("div");
  el.className = "card back";
  if (label) el.innerHTML = `<span class="back-label">${label}</span>`;
  return el;
}

/** A row of card elements for a list of card texts. */
export function cardRow(cards, opts = {}) {
  const row = document.createElement("div");
  row.className = "card-row";
  for (const c of cards) row.appendChild(cardElement(c, opts));
  return row;
}

/** Parse a position text "table / hand / variant" (the variant part is optional). */
export function parsePosition(text) {
  const [table = "", hand = "", variant = "machiavelli"] = String(text).split("/");
  return { table: parseTable(table), hand: parseCards(hand), variant: variant.trim() || "machiavelli" };
}

/** The text form of a position. */
export function positionText(pos) {
  return `${tableText(pos.table)} / ${pos.hand.join(" ")} / ${pos.variant}`;
}

/** The ace rule ("low", "high", "both") of a variant text, given the defaults from /api/info. */
export function aceRule(variantText, defaults = {}) {
  const m = /ace=(low|high|both)/.exec(variantText);
  if (m) return m[1];
  const name = variantText.split(":")[0];
  return defaults[name] || { manipulation: "high", shanghai: "low" }[name] || "both";
}
