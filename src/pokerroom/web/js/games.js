// Naming what the server sends as data: a game (``game_info`` in the view, the lobby rows,
// HandStarted, GameChanged and the previous-hand record: variant, structure, stakes,
// blinds, ante, bring-in) in the current language, and the untyped events of records
// stored before events had types. Nothing here reads the server's English labels: they
// are shown as they are only where a history stored before protocol 3 has no data.
// Display only: every rule (what is legal, how much) comes from the server.
import { t } from "./i18n.js";

const KINDS = { no_limit: "NL", pot_limit: "PL", fixed_limit: "FL" };

/** A game's facts for drawing: kind (NL, PL, FL, Stud; "" without data), stakes text,
 *  blinds (sb, bb), bets, ante and bring-in, and whether it is fixed limit or stud. */
export function gameFacts(info) {
  if (!info) return { kind: "", stakes: "", stud: false, fixed: false, sb: 0, bb: 0, smallBet: 0, bigBet: 0, ante: 0, bringIn: 0 };
  const stud = info.variant === "stud";
  return {
    kind: stud ? "Stud" : KINDS[info.structure] ?? "",
    stakes: `${info.stakes[0]}/${info.stakes[1]}`,
    stud,
    fixed: info.structure === "fixed_limit",
    sb: info.small_blind,
    bb: info.big_blind,
    smallBet: info.small_bet,
    bigBet: info.big_bet,
    ante: info.ante,
    bringIn: info.bring_in,
  };
}

export function isStud(info) {
  return info?.variant === "stud";
}

/** "No-Limit Hold'em" in the current language (``label`` where there is no data). */
export function gameTitle(info, label = "") {
  const g = gameFacts(info);
  return g.kind ? t(`game.${g.kind}`) : label;
}

/** "No-Limit Hold'em 1/2 (ante 1)" in the current language (``label`` where there is no data). */
export function gameLong(info, label = "") {
  const g = gameFacts(info);
  if (!g.kind) return label;
  const extra = [];
  if (g.kind === "FL") extra.push(t("game.blinds", { sb: g.sb, bb: g.bb }));
  if (g.ante) extra.push(t("game.ante", { n: g.ante }));
  if (g.bringIn) extra.push(t("game.bringIn", { n: g.bringIn }));
  return `${t(`game.${g.kind}`)} ${g.stakes}${extra.length ? ` (${extra.join(", ")})` : ""}`;
}

function sameGame(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The game of a lobby row: its own, or "Mixed" for a table with a schedule. */
export function lobbyKind(row) {
  if (row.hands_to_switch > 0 || !sameGame(row.game_info, row.next_game_info)) return "Mixed";
  return gameFacts(row.game_info).kind || "Other";
}

/** Whether a previous-hand record is of stud: its game says so; a record stored before
 *  protocol 3 has none, and a stud hand is the one whose cards are dealt face up. */
export function recordIsStud(record) {
  if (record.game_info) return isStud(record.game_info);
  return record.events.some((e) => e.face_up === true);
}

/** What a record event is: records stored before events had types keep plain objects. */
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
