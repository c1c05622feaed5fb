/* The console's lock screen (casino/console/lock.py): after the idle minutes the page
   covers itself with a dialog, without navigating, so the round typed stays in its form;
   a 401 from an htmx request (the login ran out on the server) opens the same dialog to
   sign in again. Unlocking posts the username and PIN or password; the answer carries the
   CSRF token to use from then on (a login rotates it). */
(() => {
  "use strict";

  const ACTIVITY = ["keydown", "pointerdown", "input", "wheel", "touchstart"];
  let lastActivity = Date.now();
  let locked = false;
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

  function lock(reason) {
    const box = dialog();
    if (!box) return;
    const message = { idle: box.dataset.msgIdle, expired: box.dataset.msgExpired }[reason];
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

  function unlocked(user) {
    const box = dialog();
    locked = false;
    box.hidden = true;
    setInert(false);
    field("lock-username").value = user;
    document.querySelectorAll("[data-signed-in-user]").forEach((element) => {
      element.textContent = user;
    });
    lastActivity = Date.now();
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
    unlocked(answer.user);
  }

  ACTIVITY.forEach((type) => {
    document.addEventListener(type, () => {
      if (!locked) lastActivity = Date.now();
    }, { capture: true, passive: true });
  });

  /* While locked, no key reaches the console's shortcuts (Ctrl+Enter would confirm). */
  window.addEventListener("keydown", (event) => {
    if (!locked) return;
    event.stopPropagation();
    if (!dialog().contains(event.target)) event.preventDefault();
  }, true);

  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr.status === 401) lock("expired");
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-lock-now]")) lock("manual");
  });

  document.addEventListener("DOMContentLoaded", () => {
    const box = dialog();
    if (!box) return;
    field("lock-form").addEventListener("submit", unlock);
    const idle = Number(box.dataset.idleSeconds) * 1000;
    if (idle > 0) {
      setInterval(() => {
        if (!locked && Date.now() - lastActivity >= idle) lock("idle");
      }, 1000);
    }
  });
})();
