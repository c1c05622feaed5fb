/* Baccarat's round screen in the browser: the six card fields of the deal, keyboard-first.
 *
 * A card typed in a field moves on to the next card of the deal: the first four in order
 * (Player, Banker, Player, Banker), then the field the server's tableau says comes next
 * (#bac-deal's data-next, after the live partial answers); Enter on a card moves on the
 * same way, or previews once the deal is complete. Everything that decides the deal and
 * the money happens on the server. The shared console.js does the rest (Ctrl+Enter).
 */
(function () {
  "use strict";

  const ORDER = ["bac-p1", "bac-b1", "bac-p2", "bac-b2", "bac-p3", "bac-b3"];
  let waiting = null;  // the field whose card waits for the tableau to say what comes next
  let settled = false;

  function isCard(text) {
    let value = text.trim().toUpperCase().replace(/\uFE0F/g, "").replace(/[♠♤♥♡♣♧♦♢]/g, "S");
    if (value.startsWith("10")) value = "T" + value.slice(2);
    return /^[A2-9TJQK][SHCD]$/.test(value);
  }

  function field(name) {
    return name ? document.getElementById(name) : null;
  }

  function focusOn(input) {
    if (!input) return;
    input.focus();
    if (input.select) input.select();
  }

  function previewNow() {
    const form = document.getElementById("round-form");
    if (!form) return;
    const button = document.getElementById("preview-button");
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else form.submit();
  }

  /* Where the tableau goes after the deal typed so far: a field, or null when complete. */
  function nextFromServer() {
    const deal = document.getElementById("bac-deal");
    return deal ? field(deal.dataset.next) : null;
  }

  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!input.matches || !input.matches("input[data-bac-card]") || !isCard(input.value)) return;
    const index = ORDER.indexOf(input.id);
    if (index >= 0 && index < 3) focusOn(field(ORDER[index + 1]));
    else waiting = input.id;  // the tableau decides: wait for the live partial
  });

  /* The next round (same seats and stakes, a new deal) starts at the first card, as soon as
     its form is in: on the swap, before htmx ends the request, not on the settle after. */
  document.addEventListener("htmx:afterSwap", () => {
    if (!settled) return;
    settled = false;
    focusOn(field(ORDER[0]));
  });

  document.addEventListener("htmx:afterSettle", () => {
    if (!waiting) return;
    /* Only the answer to the deal as it is typed now: an earlier one may settle after. */
    const deal = document.getElementById("bac-deal");
    const typed = ORDER.map(field).map((input) => (input ? input.value.trim() : "")).join("|");
    if (!deal || deal.dataset.typed !== typed) return;
    const from = waiting;
    waiting = null;
    if (document.activeElement && document.activeElement.id === from) {
      const next = nextFromServer();
      if (next && next.id !== from) focusOn(next);
    }
  });

  /* Enter on a card field: on to the next card of the deal, or preview when it is done;
     on an empty seat's stake, on to the deal. Caught before the shared console's handler,
     which knows five-card hands only. */
  window.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || event.isComposing || event.ctrlKey || event.metaKey) return;
    if (!input.matches) return;
    if (input.matches("input[data-stake]")) {
      /* Enter on an empty seat: the seats are done, the deal comes next. */
      const row = input.closest(".box-row");
      const empty = row && Array.from(row.querySelectorAll("input[data-field]")).every((i) => !i.value.trim());
      if (empty) {
        event.preventDefault();
        event.stopPropagation();
        focusOn(field(ORDER[0]));
      }
      return;
    }
    if (!input.matches("input[data-bac-card]")) return;
    event.preventDefault();
    event.stopPropagation();
    const index = ORDER.indexOf(input.id);
    if (index >= 0 && index < 3) {
      focusOn(field(ORDER[index + 1]));
      return;
    }
    const next = nextFromServer();
    if (next && next.id !== input.id && !next.value.trim()) focusOn(next);
    else previewNow();
  }, true);

  document.addEventListener("click", (event) => {
    if (!event.target.closest || !event.target.closest("[data-bac-clear]")) return;
    const inputs = ORDER.map(field).filter(Boolean);
    inputs.forEach((input) => { input.value = ""; });
    const first = inputs[0];
    if (first) {
      first.dispatchEvent(new Event("input", { bubbles: true }));
      focusOn(first);
    }
  });

  document.addEventListener("console:settled", () => { settled = true; });

  document.addEventListener("DOMContentLoaded", () => {
    /* Stakes carried over from the last round: the round starts at the first card. */
    const staked = Array.from(document.querySelectorAll("input[data-stake]")).some((i) => i.value.trim());
    if (staked) focusOn(field(ORDER[0]));
  });
})();
