// Sounds and the window title. The player's turn: the title flashes while he may not be
// looking and a short beep; the cards dealt, chips bet and a pot won (issue 19, item 9):
// each its own short sound, each switchable in the settings. All synthesized with WebAudio
// (no files); the audio starts after his first click, as browsers require.
// ``window.pokerroomSounds`` counts the sounds played, by kind, for tests and the curious.
import { pref } from "./prefs.js";
import { t } from "./i18n.js";

let audio = null;
let flashTimer = null;
let baseTitle = document.title;
const played = { turn: 0, deal: 0, chips: 0, win: 0 };
window.pokerroomSounds = played;

// which setting switches each kind of sound
const SWITCH = { turn: "sound", deal: "soundCards", chips: "soundChips", win: "soundChips" };

function unlockAudio() {
  if (audio) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = new Context();
}
window.addEventListener("pointerdown", unlockAudio, { once: true, capture: true });
window.addEventListener("keydown", unlockAudio, { once: true, capture: true });

/** One tone: ``type`` wave at ``freq`` Hz from ``at`` s for ``length`` s, at ``level``. */
function tone(at, freq, length, level, type = "sine", slide = 1) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (slide !== 1) osc.frequency.exponentialRampToValueAtTime(freq * slide, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + Math.min(0.02, length / 4));
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(at);
  osc.stop(at + length + 0.01);
}

/** A short burst of filtered noise: a card sliding on the felt. */
function swish(at, length, level) {
  const frames = Math.floor(audio.sampleRate * length);
  const buffer = audio.createBuffer(1, frames, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = audio.createBufferSource();
  source.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  const gain = audio.createGain();
  gain.gain.value = level;
  source.connect(filter).connect(gain).connect(audio.destination);
  source.start(at);
}

const SOUNDS = {
  turn: (now) => {
    tone(now, 880, 0.14, 0.18);
    tone(now + 0.16, 1320, 0.14, 0.18);
  },
  deal: (now) => swish(now, 0.09, 0.5),
  // chips: two clicks of clay, a little apart
  chips: (now) => {
    tone(now, 3200, 0.05, 0.12, "triangle", 0.7);
    tone(now + 0.06, 2700, 0.06, 0.1, "triangle", 0.7);
  },
  // a pot won: a rattle of chips and a rising pair of notes
  win: (now) => {
    for (let k = 0; k < 4; k += 1) tone(now + k * 0.05, 2900 - k * 150, 0.05, 0.1, "triangle", 0.7);
    tone(now + 0.2, 660, 0.18, 0.12);
    tone(now + 0.32, 990, 0.24, 0.12);
  },
};

/** Play a kind of sound ("turn", "deal", "chips", "win") if its setting is on and the
 *  audio has started; true if it was played. */
export function sound(kind) {
  if (!audio || !pref(SWITCH[kind])) return false;
  if (audio.state === "suspended") audio.resume();
  SOUNDS[kind](audio.currentTime);
  played[kind] += 1;
  return true;
}

export function setBaseTitle(title) {
  baseTitle = title;
  if (!flashTimer) document.title = title;
}

function flashTitle(table) {
  if (!pref("flash")) return;
  stopFlash();
  let on = false;
  const text = `▶ ${t("table.yourTurn")} · ${table}`;
  flashTimer = setInterval(() => {
    on = !on;
    document.title = on ? text : baseTitle;
  }, 700);
  document.title = text;
}

export function stopFlash() {
  if (flashTimer) clearInterval(flashTimer);
  flashTimer = null;
  document.title = baseTitle;
}

/** A seat held for you from a waiting list: the same beep (switchable in the settings). */
export function seatOffered() {
  sound("turn");
}

/** Your turn: a beep, and the title flashes when the player may not be looking. */
export function yourTurn(table, away) {
  if (away) flashTitle(table);
  sound("turn");
}
