// The player's own bet presets (issue 19, item 9): before the flop, multiples of the bet
// to raise (2.5 opens to 2.5 big blinds, and over a raise to 6 makes it 15); after it,
// percents of the pot once he has called. Kept on the server with his account
// (/api/prefs), so they follow him to another browser; the action bar (controls.js) shows
// them instead of its own Min, ½ Pot, Pot when he has set some. Also the settings dialog's
// part that edits them, and its switches of the sounds and the chips' flight (prefs.js).
import { api } from "./api.js";
import { $, setText } from "./dom.js";
import { errorText, language, onLanguage, t } from "./i18n.js";
import { pref, setPref } from "./prefs.js";

const KINDS = ["preflop", "postflop"];
let presets = { preflop: [], postflop: [] };
let loading = null;
let loadedFor = null; // the player whose presets these are
const listeners = new Set();

function keep(next) {
  const value = { preflop: [...(next?.preflop ?? [])], postflop: [...(next?.postflop ?? [])] };
  if (JSON.stringify(value) === JSON.stringify(presets)) return;
  presets = value;
  for (const fn of listeners) fn(presets);
}

/** The player's presets as last read ({preflop: [], postflop: []} when he has none). */
export function ownPresets() {
  return presets;
}

/** Call ``fn`` when his presets change (read from the server or saved). */
export function onPresets(fn) {
  listeners.add(fn);
}

/** The presets of ``player`` (the room's logged-in name; null for a guest, who has
 *  none and is not asked for them): read from the server when he is new here. */
export function presetsOf(player) {
  if (player && player !== loadedFor) {
    loadedFor = player;
    loadPresets();
  } else if (!player && loadedFor) {
    loadedFor = null;
    keep(null);
  }
}

/** Read his presets from the server (no server: none). */
export function loadPresets() {
  if (!loading) {
    loading = api.prefs()
      .then((data) => keep(data.presets))
      .catch(() => keep(null))
      .finally(() => { loading = null; });
  }
  return loading;
}

function number(x) {
  return x.toLocaleString(language() === "ru" ? "ru-RU" : "en-US", { maximumFractionDigits: 2, useGrouping: false });
}

/** His preset buttons for this bet, [kind, label, amount] each, or null when he has none
 *  for this street (the bar's own then). ``level`` is the highest bet, ``afterCall`` the
 *  pot once he has called, ``clamp`` brings an amount within what is legal. */
export function ownButtons({ street, level, afterCall, bb, clamp }) {
  if (street === "preflop") {
    if (!presets.preflop.length) return null;
    const base = Math.max(level, bb);
    return presets.preflop.map((x) => [`x${x}`, t("prefs.times", { n: number(x) }), clamp(base * x)]);
  }
  if (!presets.postflop.length) return null;
  return presets.postflop.map((p) => [`p${p}`, t("prefs.percent", { n: number(p) }), clamp(level + (afterCall * p) / 100)]);
}

// ------------------------------------------------------------------ the settings dialog

/** "2,5 3x" -> [2.5, 3]; a word that is no number: Error naming it. */
function parse(text) {
  const words = text.split(/[\s;]+/).filter(Boolean);
  return words.map((word) => {
    const n = Number(word.replace(/[x×%]$/i, "").replace(",", "."));
    if (!word.replace(/[x×%]$/i, "") || !Number.isFinite(n)) throw new Error(t("prefs.notNumber", { text: word }));
    return n;
  });
}

// the boxes he has typed in since the dialog opened: what he typed is his until he saves,
// whatever comes from the server meanwhile (its presets arrive after the dialog opens)
const typed = new Set();

function fill() {
  for (const kind of KINDS) {
    if (!typed.has(kind)) $(`#set-${kind}`).value = presets[kind].map(number).join(" ");
  }
}

function status(text, kind = "") {
  const el = $("#set-presets-status");
  setText(el, text);
  el.dataset.kind = kind;
}

async function save(next) {
  try {
    const data = await api.putPrefs(next);
    keep(data.presets);
    typed.clear(); // saved: the boxes show what the server kept
    fill();
    status(t("prefs.saved"), "ok");
  } catch (err) {
    status(err.status === 401 ? t("prefs.loginFirst") : errorText(err.code, err.message), "error");
  }
}

const SWITCHES = { "#set-sound-cards": "soundCards", "#set-sound-chips": "soundChips", "#set-chip-fx": "chipFx" };

function wire() {
  const dialog = $("#dlg-settings");
  if (!dialog) return;
  $("#btn-settings")?.addEventListener("click", () => {
    for (const [id, name] of Object.entries(SWITCHES)) $(id).checked = pref(name);
    status("");
    typed.clear();
    fill();
    if (window.pokerroom?.room?.player) loadPresets().then(fill); // a guest has none
  });
  for (const [id, name] of Object.entries(SWITCHES)) $(id).addEventListener("change", (e) => setPref(name, e.target.checked));
  const submit = () => {
    try {
      save({ preflop: parse($("#set-preflop").value), postflop: parse($("#set-postflop").value) });
    } catch (err) {
      status(err.message, "error");
    }
  };
  $("#set-presets-save").addEventListener("click", submit);
  $("#set-presets-reset").addEventListener("click", () => save({ preflop: [], postflop: [] }));
  for (const kind of KINDS) {
    $(`#set-${kind}`).addEventListener("input", () => typed.add(kind));
    $(`#set-${kind}`).addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault(); // not the dialog's form: that would close it
      submit();
    });
  }
  onLanguage(() => {
    if (dialog.open) fill();
  });
}
wire();
