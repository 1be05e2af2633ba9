// Telling the player it is his turn while he looks elsewhere: the window title flashes
// and, if he likes, a short beep (WebAudio; the audio starts after his first click, as
// browsers require).
import { pref } from "./prefs.js";
import { t } from "./i18n.js";

let audio = null;
let flashTimer = null;
let baseTitle = document.title;

function unlockAudio() {
  if (audio) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = new Context();
}
window.addEventListener("pointerdown", unlockAudio, { once: true, capture: true });
window.addEventListener("keydown", unlockAudio, { once: true, capture: true });

function beep() {
  if (!audio || !pref("sound")) return;
  if (audio.state === "suspended") audio.resume();
  const now = audio.currentTime;
  for (const [offset, freq] of [[0, 880], [0.16, 1320]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + offset);
    gain.gain.exponentialRampToValueAtTime(0.18, now + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.14);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + offset);
    osc.stop(now + offset + 0.15);
  }
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
  beep();
}

/** Your turn: a beep, and the title flashes when the player may not be looking. */
export function yourTurn(table, away) {
  if (away) flashTitle(table);
  beep();
}
