// One line per logged move, for the table's log and the record viewer.

const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;

/** "greedy played 8D 9D 10D", "You drew 5C", "greedy drew 2 cards", … */
export function describeEvent(event, who) {
  const action = event.action || event;
  const drawn = action.drawn ? action.drawn.join(" ") : cards(action.count ?? 1);
  switch (action.type) {
    case "play":
      return `${who} played ${(action.played || []).join(" ")}${action.knock ? " and knocked" : ""}`;
    case "draw": return `${who} drew ${drawn}`;
    case "penalty": return `${who} gave up and drew ${drawn} as a penalty`;
    case "give_up": return `${who} gave up`;
    case "pass": return `${who} passed`;
    default: return `${who}: ${action.type}`;
  }
}
