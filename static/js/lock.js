/* The console's lock screen (casino/console/lock.py): after the idle minutes, or by hand,
   the page covers itself with a dialog, without navigating, so the round typed stays in
   its form, and tells the server, which then refuses the login's every request in every
   tab (casino/console/terminal.py): a 423 opens the same dialog in another tab, and a page
   asked for while locked comes as the dialog alone, asked for again once unlocked. Use of
   the page is reported to the server (a beat, at most every data-beat-seconds), so its own
   idle deadline follows the person, not the page's polls. A 401 from an htmx request (the
   login ran out on the server) opens the dialog to sign in again. Unlocking posts the
   username and PIN or password; the answer carries the CSRF token to use from then on (a
   login rotates it) and, after a takeover, the dealer now on duty. */
(() => {
  "use strict";

  const ACTIVITY = ["keydown", "pointerdown", "input", "wheel", "touchstart"];
  let lastActivity = Date.now();
  let lastBeat = Date.now();
  let locked = false;
  let reloadWhenUnlocked = false;
  let returnFocus = null;

  const dialog = () => document.getElementById("lock");
  const field = (id) => document.getElementById(id);

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function useToken(token) {
    if (!token) return;
    document.body.setAttribute("hx-headers", JSON.stringify({ "X-CSRFToken": token }));
    document.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach((input) => {
      input.value = token;
    });
  }

  function setInert(on) {
    for (const element of document.body.children) {
      if (element.id !== "lock") element.inert = on;
    }
  }

  function tellServer(url, data) {
    const body = new URLSearchParams(data);
    return fetch(url, {
      method: "POST",
      body,
      headers: { "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
      keepalive: true,
    });
  }

  function lock(reason) {
    const box = dialog();
    if (!box || (locked && reason === "locked")) return;
    if (reason === "idle" || reason === "manual") {
      tellServer(box.dataset.lockUrl, { reason }).catch(() => {});
    }
    const message = {
      idle: box.dataset.msgIdle,
      expired: box.dataset.msgExpired,
      locked: box.dataset.msgLocked,
    }[reason];
    field("lock-why").textContent = message || box.dataset.msgManual;
    field("lock-error").textContent = "";
    if (!locked) returnFocus = document.activeElement;
    locked = true;
    box.hidden = false;
    setInert(true);
    const secret = field("lock-secret");
    secret.value = "";
    (field("lock-username").value ? secret : field("lock-username")).focus();
  }

  function unlocked(user, onDuty) {
    const box = dialog();
    if (reloadWhenUnlocked) {
      window.location.replace(window.location.href);  // a GET of the page asked for
      return;
    }
    locked = false;
    box.hidden = true;
    setInert(false);
    field("lock-username").value = user;
    document.querySelectorAll("[data-signed-in-user]").forEach((element) => {
      element.textContent = user;
    });
    const duty = document.getElementById("on-duty");
    if (onDuty && duty && duty.firstChild) duty.firstChild.textContent = onDuty;
    lastActivity = Date.now();
    lastBeat = lastActivity;
    if (returnFocus && document.contains(returnFocus)) returnFocus.focus();
    returnFocus = null;
  }

  async function unlock(event) {
    event.preventDefault();
    const box = dialog();
    const form = event.target;
    const refuse = (message) => {
      field("lock-error").textContent = message;
      field("lock-secret").value = "";
      field("lock-secret").focus();
    };
    let response;
    try {
      response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { "X-CSRFToken": csrfToken() },
        credentials: "same-origin",
      });
    } catch (error) {
      refuse(box.dataset.msgOffline);
      return;
    }
    let answer = {};
    try {
      answer = await response.json();
    } catch (error) {
      answer = {};
    }
    if (!response.ok) {
      refuse(answer.error || box.dataset.msgWrong);
      return;
    }
    useToken(answer.csrf);
    unlocked(answer.user, answer.on_duty);
  }

  function beat() {
    const box = dialog();
    const every = Number(box && box.dataset.beatSeconds) * 1000;
    if (!box || !every || Date.now() - lastBeat < every) return;
    lastBeat = Date.now();
    tellServer(box.dataset.activeUrl, {}).then((response) => {
      if (response.status === 423) lock("locked");
      else if (response.status === 401) lock("expired");
    }).catch(() => {});
  }

  ACTIVITY.forEach((type) => {
    document.addEventListener(type, () => {
      if (locked) return;
      lastActivity = Date.now();
      beat();
    }, { capture: true, passive: true });
  });

  /* While locked, no key reaches the console's shortcuts (Ctrl+Enter would confirm). */
  window.addEventListener("keydown", (event) => {
    if (!locked) return;
    event.stopPropagation();
    if (!dialog().contains(event.target)) event.preventDefault();
  }, true);

  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail.xhr.status;
    if (status === 401) lock("expired");
    else if (status === 423) lock("locked");
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-lock-now]")) lock("manual");
  });

  document.addEventListener("DOMContentLoaded", () => {
    const box = dialog();
    if (!box) return;
    field("lock-form").addEventListener("submit", unlock);
    if ("locked" in box.dataset) {
      reloadWhenUnlocked = true;
      lock("locked");
    }
    const idle = Number(box.dataset.idleSeconds) * 1000;
    if (idle > 0) {
      setInterval(() => {
        if (!locked && Date.now() - lastActivity >= idle) lock("idle");
      }, 1000);
    }
  });
})();
