// Client-side validity of groups (docs/rules.md §2): sets and runs with the variant's ace rule.
// Jokers are checked as the cards they name; a bare joker ("*") makes the group "unknown",
// which the page leaves to the server.
import { cardParts } from "./cards.js";

function isSet(parts) {
  if (parts.length < 3 || parts.length > 4) return false;
  const suits = new Set(parts.map((p) => p.suit));
  return parts.every((p) => p.rank === parts[0].rank) && suits.size === parts.length;
}

function consecutive(ranks) {
  return ranks.every((r, i) => i === 0 || r === ranks[i - 1] + 1);
}

function isRun(parts, ace) {
  if (parts.length < 3 || !parts.every((p) => p.suit === parts[0].suit)) return false;
  const ranks = parts.map((p) => p.rank).sort((a, b) => a - b);
  if (new Set(ranks).size !== ranks.length) return false;
  const low = ace === "low" || ace === "both";
  const high = ace === "high" || ace === "both";
  if (consecutive(ranks) && (ranks[0] !== 1 || low)) return true;
  if (!high || ranks[0] !== 1) return false;
  const aceHigh = [...ranks.slice(1), 14];
  return consecutive(aceHigh);
}

/** "valid", "invalid" or "unknown" (an unnamed joker) for one group of card texts. */
export function groupStatus(cards, ace = "both", { singleOk = false } = {}) {
  if (singleOk && cards.length === 1) return "valid";
  const parts = cards.map(cardParts);
  if (parts.some((p) => p.joker && !p.rank)) return "unknown";
  return isSet(parts) || isRun(parts, ace) ? "valid" : "invalid";
}

/** Order a group for display: runs by rank (ace placed by the rule), sets by suit. */
export function orderGroup(cards, ace = "both") {
  const parts = cards.map((c) => ({ c, ...cardParts(c) }));
  const suitOrder = "SHDC";
  if (parts.length && parts.every((p) => p.rank === parts[0].rank)) {
    return parts.sort((a, b) => suitOrder.indexOf(a.suit) - suitOrder.indexOf(b.suit)).map((p) => p.c);
  }
  const hasKing = parts.some((p) => p.rank === 13);
  const aceHigh = ace === "high" || (ace === "both" && hasKing);
  const key = (p) => (p.rank === 1 && aceHigh ? 14 : p.rank);
  return parts.sort((a, b) => key(a) - key(b)).map((p) => p.c);
}
