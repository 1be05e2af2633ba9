// Log in and register (POST /api/login, /api/register: the server sets an HttpOnly
// session cookie), and log out.
import { api } from "./api.js";
import { $ } from "./dom.js";
import { errorText, t } from "./i18n.js";

export class Auth {
  /** hooks: {signedIn(), guest()} */
  constructor(room, socket, hooks) {
    this.room = room;
    this.socket = socket;
    this.hooks = hooks;
    this.mode = "login";
    this.form = $("#auth-form");
    $("#tab-login").addEventListener("click", () => this.setMode("login"));
    $("#tab-register").addEventListener("click", () => this.setMode("register"));
    $("#auth-guest").addEventListener("click", () => hooks.guest());
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
  }

  setMode(mode) {
    this.mode = mode;
    $("#tab-login").setAttribute("aria-selected", String(mode === "login"));
    $("#tab-register").setAttribute("aria-selected", String(mode === "register"));
    const submit = $("#auth-submit");
    submit.dataset.i18n = mode === "login" ? "auth.submitLogin" : "auth.submitRegister";
    submit.textContent = t(submit.dataset.i18n);
    $("#auth-password").autocomplete = mode === "login" ? "current-password" : "new-password";
    $("#auth-error").textContent = "";
  }

  async submit() {
    const name = $("#auth-name").value.trim();
    const password = $("#auth-password").value;
    const error = $("#auth-error");
    error.textContent = "";
    const submit = $("#auth-submit");
    submit.disabled = true;
    try {
      if (this.mode === "register") await api.register(name, password);
      else await api.login(name, password);
      $("#auth-password").value = "";
      this.room.signedIn(name);
      this.signedIn();
    } catch (err) {
      error.textContent = errorText(err.code, err.message);
      error.dataset.code = err.code || "";
    } finally {
      submit.disabled = false;
    }
  }

  /** The session changed: the connection must say who we are now. */
  signedIn() {
    this.setMode("login");
    this.room.forgetVersions();
    this.socket.reconnect();
    this.hooks.signedIn();
  }

  async logout() {
    try {
      await api.logout();
    } catch {
      // logged out anyway from this page's point of view
    }
    this.room.signedOut();
    for (const name of [...this.room.tables.keys()]) this.room.close(name);
    this.room.forgetVersions();
    this.socket.reconnect();
    this.setMode("login");
  }
}
