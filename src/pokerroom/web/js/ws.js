// The WebSocket connection (docs/protocol.md): commands with ids answered by ok/error,
// every server message passed on, a ping to notice a dead link, and reconnection with
// back-off. What to resend after a reconnect (lobby, subscriptions with ``since``) is the
// app's business: it listens for "up".
import { ApiError } from "./api.js";

const PING_EVERY = 20000;
const PONG_WITHIN = 10000;
const ANSWER_WITHIN = 15000;

export class Socket extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.ws = null;
    this.open = false;
    this.nextId = 1;
    this.pending = new Map();
    this.retries = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.everOpened = false;
    this.deliberate = false; // a reconnect we asked for (login, logout), not a failure
    this.offlineUntil = 0;
  }

  connect() {
    clearTimeout(this.retryTimer);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.open = true;
      this.retries = 0;
      this.startPing();
      const again = this.everOpened && !this.deliberate;
      this.everOpened = true;
      this.deliberate = false;
      this.emit("up", { again });
    });
    ws.addEventListener("message", (e) => {
      if (ws !== this.ws) return;
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(message);
    });
    ws.addEventListener("close", () => {
      if (ws !== this.ws) return;
      this.lost();
    });
  }

  /** Close and open again (a login or logout changes who the connection is). */
  reconnect() {
    this.deliberate = true;
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.lost(true);
  }

  /** Tests and the curious: drop the link as a network failure would, and stay
   *  offline for ``offlineMs`` before reconnecting. */
  dropForTest(offlineMs = 0) {
    this.offlineUntil = Date.now() + offlineMs;
    if (this.ws) this.ws.close();
  }

  /** The link is dead (no pong): give it up without waiting for a closing handshake. */
  abandon() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.lost();
  }

  lost(now = false) {
    const wasOpen = this.open;
    this.open = false;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new ApiError("network", "the connection was lost", 0));
    }
    this.pending.clear();
    if (wasOpen && !now) this.emit("down", {});
    const backoff = now ? 0 : Math.min(5000, 300 * 2 ** this.retries) + Math.random() * 200;
    const delay = Math.max(backoff, this.offlineUntil - Date.now());
    this.retries += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  startPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (!this.open) return;
      this.send({ type: "ping" });
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.abandon(), PONG_WITHIN);
    }, PING_EVERY);
  }

  receive(message) {
    if (message.type === "pong") clearTimeout(this.pongTimer);
    if ((message.type === "ok" || message.type === "error") && this.pending.has(message.id)) {
      const { resolve, reject, timer } = this.pending.get(message.id);
      this.pending.delete(message.id);
      clearTimeout(timer);
      if (message.type === "ok") resolve(message);
      else reject(new ApiError(message.code, message.message, 0));
      return;
    }
    this.emit("message", message);
  }

  /** Send without waiting for the answer; false when the link is down. */
  send(message) {
    if (!this.open || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send a command and wait for its ok (resolves) or error (rejects with ApiError). */
  request(message) {
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...message, id })) {
        reject(new ApiError("network", "not connected", 0));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError("timeout", "no answer", 0));
      }, ANSWER_WITHIN);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
