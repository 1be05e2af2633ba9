// Reading what the server names: game labels ("NL 1/2", "FL 2/4 (blinds 1/2)",
// "Stud 10/20 (ante 1, bring-in 3)") and the untyped events of a previous-hand record.
// Display only: every rule (what is legal, how much) comes from the server.
import { t } from "./i18n.js";

/** A game label as parts: kind (NL, PL, FL, Stud), stakes text, and the numbers. */
export function parseGame(label) {
  const text = String(label || "");
  let m = text.match(/^Stud (\d+)\/(\d+) \(ante (\d+), bring-in (\d+)\)$/);
  if (m) {
    return { kind: "Stud", stakes: `${m[1]}/${m[2]}`, smallBet: +m[1], bigBet: +m[2], ante: +m[3], bringIn: +m[4],
      fixed: true, stud: true, label: text };
  }
  m = text.match(/^FL (\d+)\/(\d+) \(blinds (\d+)\/(\d+)(?:, ante (\d+))?\)$/);
  if (m) {
    return { kind: "FL", stakes: `${m[1]}/${m[2]}`, smallBet: +m[1], bigBet: +m[2], sb: +m[3], bb: +m[4],
      ante: m[5] ? +m[5] : 0, fixed: true, stud: false, label: text };
  }
  m = text.match(/^(NL|PL) (\d+)\/(\d+)(?: ante (\d+))?$/);
  if (m) {
    return { kind: m[1], stakes: `${m[2]}/${m[3]}`, sb: +m[2], bb: +m[3], ante: m[4] ? +m[4] : 0,
      fixed: false, stud: false, label: text };
  }
  return { kind: "", stakes: "", fixed: false, stud: false, label: text };
}

/** "No-Limit Hold'em" in the current language. */
export function gameTitle(label) {
  const g = parseGame(label);
  return g.kind ? t(`game.${g.kind}`) : g.label;
}

/** "No-Limit Hold'em 1/2, ante 1" in the current language. */
export function gameLong(label) {
  const g = parseGame(label);
  if (!g.kind) return g.label;
  const extra = [];
  if (g.kind === "FL") extra.push(t("game.blinds", { sb: g.sb, bb: g.bb }));
  if (g.ante) extra.push(t("game.ante", { n: g.ante }));
  if (g.bringIn) extra.push(t("game.bringIn", { n: g.bringIn }));
  return `${t(`game.${g.kind}`)} ${g.stakes}${extra.length ? ` (${extra.join(", ")})` : ""}`;
}

/** The game of a lobby row: its own, or "Mixed" for a table with a schedule. */
export function lobbyKind(row) {
  if (row.hands_to_switch > 0 || row.next_game !== row.game) return "Mixed";
  return parseGame(row.game).kind || "Other";
}

/** What a record event is: the record keeps events as plain objects without their type. */
export function recordEventType(e) {
  if ("type" in e) return e.type;
  if ("kind" in e) return "Posted";
  if ("face_up" in e) return "HoleDealt";
  if ("action" in e) return "Acted";
  if ("eligible" in e) return "PotAwarded";
  if ("forced" in e) return "Shown";
  if ("street" in e && "pot" in e) return "StreetEnded";
  if ("street" in e && Array.isArray(e.cards)) return "BoardDealt";
  if ("street" in e) return "Reshuffled";
  if ("player" in e && Array.isArray(e.cards)) return "Mucked";
  if ("player" in e && "amount" in e) return "UncalledReturned";
  return "Unknown";
}

const HOLDEM_STREETS = ["preflop", "flop", "turn", "river"];
const STUD_STREETS = ["third street", "fourth street", "fifth street", "sixth street", "seventh street"];

export function streetName(name) {
  return name ? t(`street.${name}`) : "";
}

/** The street a StreetEnded/BoardDealt index names, in the game's words. */
export function streetByIndex(index, stud) {
  return (stud ? STUD_STREETS : HOLDEM_STREETS)[index] ?? "";
}

/** Which of a stud player's own cards were dealt face down (the first two and the seventh). */
export function studDown(index) {
  return index < 2 || index === 6;
}
