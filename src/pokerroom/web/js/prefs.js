// The player's display settings, kept in this browser (localStorage): the deck's colours,
// the turn's sound and flashing title, the sounds of cards and chips and the chips' flight
// to the pot and the winners (issue 19, item 9). His own bet presets are kept on the
// server, with his account (presets.js).
const KEY = "pokerroom.prefs";
const DEFAULTS = { fourColor: false, sound: true, flash: true, soundCards: true, soundChips: true, chipFx: true };
const listeners = new Set();

let prefs = { ...DEFAULTS };
try {
  prefs = { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
} catch {
  prefs = { ...DEFAULTS };
}

export function pref(name) {
  return prefs[name];
}

export function setPref(name, value) {
  prefs[name] = value;
  localStorage.setItem(KEY, JSON.stringify(prefs));
  for (const fn of listeners) fn(name, value);
}

export function onPref(fn) {
  listeners.add(fn);
}
