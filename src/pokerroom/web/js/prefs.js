// The player's display settings, kept in this browser (localStorage).
const KEY = "pokerroom.prefs";
const DEFAULTS = { fourColor: false, sound: true, flash: true };
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
