// The arrangement being built on the table before Done: groups of cards, each card remembering
// whether it came from the hand, plus what is left in the hand. Pure state, no DOM.
import { cardParts } from "./cards.js";
import { groupStatus, orderGroup } from "./groups.js";

let lastId = 0;
const item = (card, fromHand, original = card) => ({ id: `c${++lastId}`, card, fromHand, original });

export class Staging {
  /** Start from the server's table and hand. */
  constructor(table, hand, ace = "both") {
    this.ace = ace;
    this.baseTable = table.map((g) => [...g]);
    this.baseHand = [...hand];
    this.singles = new Set(table.filter((g) => g.length === 1).map((g) => g[0]));
    this.reset();
  }

  reset() {
    this.groups = this.baseTable.map((g) => g.map((c) => item(c, false)));
    this.hand = this.baseHand.map((c) => item(c, false));
  }

  /** True when nothing has been moved yet. */
  get untouched() {
    return !this.groups.some((g) => g.some((i) => i.fromHand)) &&
      JSON.stringify(this.groups.map((g) => g.map((i) => i.card))) === JSON.stringify(this.baseTable);
  }

  find(id) {
    const h = this.hand.findIndex((i) => i.id === id);
    if (h >= 0) return { list: this.hand, index: h, item: this.hand[h] };
    for (const group of this.groups) {
      const g = group.findIndex((i) => i.id === id);
      if (g >= 0) return { list: group, index: g, item: group[g] };
    }
    return null;
  }

  /** Move the cards `ids` into group `target` (an index, or "new" for a new group). */
  moveTo(ids, target, nameJoker = () => null) {
    const moving = this.take(ids, nameJoker);
    if (!moving.length) return;
    if (target === "new" || !this.groups[target]) this.groups.push(moving);
    else this.groups[target].push(...moving);
    this.tidy();
  }

  /** Return cards that came from the hand back to it (table cards cannot go to a hand). */
  backToHand(ids) {
    for (const id of ids) {
      const found = this.find(id);
      if (!found || !found.item.fromHand) continue;
      found.list.splice(found.index, 1);
      this.hand.push(item(found.item.original, false));
    }
    this.tidy();
  }

  take(ids, nameJoker) {
    const moving = [];
    for (const id of ids) {
      const found = this.find(id);
      if (!found) continue;
      const it = found.item;
      if (found.list === this.hand) {
        const card = it.card === "*" ? nameJoker() : it.card;
        if (!card) continue;
        moving.push(item(card, true, it.card));
      } else {
        moving.push(it);
      }
      found.list.splice(found.index, 1);
    }
    return moving;
  }

  tidy() {
    this.groups = this.groups.filter((g) => g.length);
    for (const group of this.groups) {
      const order = orderGroup(group.map((i) => i.card), this.ace);
      group.sort((a, b) => order.indexOf(a.card) - order.indexOf(b.card));
    }
  }

  /** Stage a whole arrangement: `table` with the hand cards `played` added. */
  stage(table, played) {
    this.reset();
    const left = [...played];
    const hand = [...this.baseHand];
    this.groups = table.map((g) => g.map((card) => {
      const handCard = cardParts(card).joker ? "*" : card;
      const fromTable = this.baseTable.flat();
      const k = left.indexOf(handCard);
      const fromHand = k >= 0 && countOf(fromTable, card) < countOf(table.flat(), card);
      if (fromHand) {
        left.splice(k, 1);
        hand.splice(hand.indexOf(handCard), 1);
      }
      return item(card, fromHand, handCard);
    }));
    this.hand = hand.map((c) => item(c, false));
    this.tidy();
  }

  status(group) {
    const single = group.length === 1 && !group[0].fromHand && this.singles.has(group[0].card);
    return groupStatus(group.map((i) => i.card), this.ace, { singleOk: single });
  }

  get valid() {
    return this.groups.every((g) => this.status(g) !== "invalid");
  }

  /** The `move` action for Done. */
  action(knock = false) {
    const played = this.groups.flat().filter((i) => i.fromHand).map((i) => i.original);
    return { type: "play", played, table: this.groups.map((g) => g.map((i) => i.card)), knock };
  }
}

function countOf(cards, card) {
  return cards.filter((c) => c === card).length;
}
