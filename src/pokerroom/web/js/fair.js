// The proof of a deal, as fairness.py checks it (docs/protocol.md, "Provably fair
// deals"): the leaves make the commitment announced at the deal, stand in the order the
// commitment and the players' seeds give, and the player's cards, the board and the cards
// shown are opened at the places the game's dealing order gives them (burns and the stud
// reshuffle included). The same steps and the same words as verify_history. Hashing is
// WebCrypto's, which is asynchronous: so is every function here that hashes.
import { digestHex as sha256 } from "./sha256.js"; // WebCrypto where the page has it

const BOARD = -1;
const WORDS = 2 ** 32;

class Unproven extends Error {}

/** The key a deal's order is drawn from (fairness.mix). seeds: [[seat, seed], ...]. */
export async function mix(commitment, seeds) {
  const lines = [...seeds].sort((a, b) => a[0] - b[0]).map(([s, x]) => `${s}:${x}\n`).join("");
  return sha256(`pokerroom deal 2\n${commitment}\n${lines}`);
}

async function* words(key) {
  for (let counter = 0; ; counter += 1) {
    const hex = await sha256(`${key}:${counter}`);
    for (let i = 0; i < 8; i += 1) yield parseInt(hex.slice(8 * i, 8 * i + 8), 16);
  }
}

/** The Fisher-Yates shuffle of 0 .. n-1 drawn from key (fairness.permutation). */
export async function permutation(key, n) {
  const order = Array.from({ length: n }, (_, i) => i);
  const stream = words(key);
  for (let i = n - 1; i > 0; i -= 1) {
    const m = i + 1;
    const limit = WORDS - (WORDS % m);
    let word = (await stream.next()).value;
    while (word >= limit) word = (await stream.next()).value;
    const j = word % m;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** [position, seat or BOARD] of every card dealt, from the record's events (fairness.deal_slots). */
export async function dealSlots(seats, events, key) {
  const n = seats.length;
  const dealt = events.filter((e) => ["HoleDealt", "BoardDealt", "Reshuffled", "Acted"].includes(e.type));
  let first = 0;
  while (first < dealt.length && dealt[first].type === "HoleDealt") first += 1;
  if (n < 2 || (first !== 2 * n && first !== 3 * n)) throw new Unproven(`${first} hole cards dealt first to ${n} players`);
  const slots = [];
  for (let k = 0; k < first; k += 1) {
    if (dealt[k].player !== seats[k % n]) throw new Unproven(`hole card ${k + 1} went to the wrong seat`);
    slots.push([k, seats[k % n]]);
  }
  const rest = dealt.slice(first);
  return slots.concat(first === 2 * n ? holdemBoard(rest, first) : await studStreets(seats, rest, first, key));
}

function holdemBoard(events, pos) {
  const slots = [];
  for (const e of events) {
    if (e.type === "BoardDealt") {
      pos += 1; // the burn
      for (let i = 0; i < (e.cards ?? []).length; i += 1) slots.push([pos++, BOARD]);
    } else if (e.type !== "Acted") throw new Unproven(`a hold'em hand with ${e.type} after the hole cards`);
  }
  if (![0, 3, 4, 5].includes(slots.length) || pos > 52) throw new Unproven(`a board of ${slots.length} cards`);
  return slots;
}

async function studStreets(seats, events, pos, key) {
  let stock = Array.from({ length: 52 }, (_, i) => i);
  let burned = [];
  const folded = new Set();
  const slots = [];
  let reshuffles = 0;
  let announced = false;
  let i = 0;
  while (i < events.length) {
    const e = events[i];
    if (e.type === "Acted") {
      if (e.action === "fold") folded.add(e.player);
      i += 1;
      continue;
    }
    if (e.type === "Reshuffled") {
      announced = true;
      i += 1;
      continue;
    }
    const live = seats.filter((s) => !folded.has(s));
    const need = live.length + 1;
    if (stock.length - pos < need) {
      if (!announced) throw new Unproven("the stub ran short without a reshuffle in the record");
      if (key === null) throw new Unproven("the stud reshuffle of this hand (the scheme before seeds) was not committed");
      const pool = stock.slice(pos).concat(burned);
      stock = (await permutation(`${key}:reshuffle:${reshuffles}`, pool.length)).map((j) => pool[j]);
      pos = 0;
      burned = [];
      reshuffles += 1;
      announced = false;
    } else if (announced) throw new Unproven("a reshuffle in the record that the stub did not need");
    if (stock.length - pos >= need) {
      burned.push(stock[pos]);
      const got = events.slice(i, i + live.length).filter((g) => g.type === "HoleDealt").map((g) => g.player);
      if (got.join() !== live.join()) throw new Unproven("a street dealt to other seats than the players still in");
      live.forEach((s, k) => slots.push([stock[pos + 1 + k], s]));
      pos += 1 + live.length;
      i += live.length;
      continue;
    }
    if (e.type !== "BoardDealt" || (e.cards ?? []).length !== 1) throw new Unproven("a short stub must deal one community card");
    if (stock.length - pos >= 2) burned.push(stock[pos++]);
    if (pos >= stock.length) throw new Unproven("more cards dealt than the deck holds");
    slots.push([stock[pos++], BOARD]);
    i += 1;
  }
  return slots;
}

/** The proof of a hand (fairness.verify_history): {ok, reason, scheme, proven, seeds}.
 *  announced: what this browser saw at the deal, or null: {commitment, seeds}, and
 *  ``broken`` when the deal was not the one its seed was sent for (store.js). */
export async function verifyHand(history, announced) {
  const scheme = history?.deal?.scheme ?? 1;
  try {
    return { ok: true, scheme, ...(await check(history, scheme, announced)) };
  } catch (err) {
    if (err instanceof Unproven) return { ok: false, scheme, reason: err.message };
    return { ok: false, scheme, reason: `not a hand history this checks (${err.message})` };
  }
}

async function check(history, scheme, announced) {
  if (scheme !== 1 && scheme !== 2) throw new Unproven(`a deal of scheme ${scheme}`);
  const { commitment, leaves } = history;
  if (typeof commitment !== "string" || !/^[0-9a-f]{64}$/.test(commitment)) throw new Unproven("the history has no commitment");
  if (announced?.commitment && announced.commitment !== commitment) {
    throw new Unproven("the history's commitment is not the one announced at the deal");
  }
  if (announced?.broken) throw new Unproven(announced.broken); // seen at the deal (Room.sendSeed)
  if (!Array.isArray(leaves) || leaves.length !== 52 || new Set(leaves).size !== 52) {
    throw new Unproven("the history does not list 52 distinct leaves");
  }
  const seeds = history.deal?.seeds ?? [];
  if (announced?.seeds && (scheme === 1 || JSON.stringify(sortSeeds(seeds)) !== JSON.stringify(sortSeeds(announced.seeds)))) {
    throw new Unproven("the history's seeds are not those announced at the deal");
  }
  let key = null;
  if (scheme === 1) {
    if (seeds.length || (await sha256(leaves.join(""))) !== commitment) throw new Unproven("the leaves do not make the commitment");
  } else {
    const ordered = [...leaves].sort();
    if ((await sha256(ordered.join(""))) !== commitment) throw new Unproven("the leaves do not make the commitment");
    key = await mix(commitment, seeds);
    if ((await permutation(key, 52)).some((j, k) => leaves[k] !== ordered[j])) {
      throw new Unproven("the leaves are not in the order the commitment and the seeds give");
    }
  }
  const seats = history.players.map((p) => p.seat);
  const slots = await dealSlots(seats, history.record.events, key);
  return { ...(await checkOpenings(history, leaves, slots, seats)), seeds };
}

function sortSeeds(seeds) {
  return [...seeds].map(([s, x]) => [Number(s), String(x)]).sort((a, b) => a[0] - b[0]);
}

async function checkOpenings(history, leaves, slots, seats) {
  const opened = new Map();
  const wellFormed = (o) => Number.isInteger(o?.position) && o.position >= 0 && o.position < leaves.length
    && typeof o.card === "string" && typeof o.salt === "string";
  const hashes = await Promise.all(history.openings.map((o) => (wellFormed(o) ? sha256(o.salt + o.card) : null)));
  history.openings.forEach((o, k) => {
    if (hashes[k] === null || hashes[k] !== leaves[o.position]) throw new Unproven(`an opening does not match its leaf`);
    opened.set(o.position, o.card);
  });
  const places = new Map();
  for (const [position, owner] of slots) places.set(owner, [...(places.get(owner) ?? []), position]);
  const mine = history.your_cards.map(String);
  let seat = history.your_seat ?? seats.find((s) => (places.get(s) ?? []).map((x) => opened.get(x)).join() === mine.join());
  if (seat === undefined || !seats.includes(seat) || !mine.length) throw new Unproven("your cards are not opened at your seat's places in the deal");
  const record = history.record;
  let wanted = placed(places.get(seat) ?? [], mine, "your cards").concat(placed(places.get(BOARD) ?? [], record.board, "the board"));
  for (const player of record.players) {
    if (player.seat !== seat && player.cards.some(Boolean)) {
      wanted = wanted.concat(placed(places.get(player.seat) ?? [], player.cards, "a hand").filter(([, c]) => c));
    }
  }
  for (const [position, card] of wanted) {
    if (opened.get(position) !== card) {
      throw new Unproven(`${card} was dealt from position ${position} of the deck, which opens ${opened.get(position) ?? "nothing"}`);
    }
  }
  return { proven: wanted.length, seat };
}

function placed(places, cards, what) {
  if (places.length !== cards.length) throw new Unproven(`${what}: ${cards.length} cards where the deal gives ${places.length}`);
  return places.map((x, i) => [x, cards[i]]);
}
