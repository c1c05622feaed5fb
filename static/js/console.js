/* The dealer's console in the browser: the card picker, the keyboard, small live totals.
 *
 * Everything that decides money happens on the server; this file only moves the focus,
 * types cards into the focused field, greys out the cards already in a hand and draws a
 * hand still short of its cards as the server would (shortHand).
 * Listeners are delegated on the document, so they survive htmx swapping parts of the page.
 */
(function () {
  "use strict";

  const SUITS = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♣": "C", "♧": "C", "♦": "D", "♢": "D" };
  let focusedCardsId = null;
  let justSettled = false;
  /* One Confirm per round: none while one is in flight, none on the next round's form
     until the dealer has changed something in it. */
  let confirming = false;
  let roundUntouched = false;

  /* "10d" -> "TD", "q♥" -> "QH"; null when the token is not a card. */
  function canonical(token) {
    let text = token.toUpperCase().replace(/\uFE0F/g, "");
    text = text.replace(/[♠♤♥♡♣♧♦♢]/g, (symbol) => SUITS[symbol]);
    if (text.startsWith("10")) text = "T" + text.slice(2);
    return /^[A2-9TJQK][SHCD]$/.test(text) ? text : null;
  }

  function tokens(input) {
    return input.value.split(/[\s,;]+/).filter(Boolean);
  }

  function cardsOf(input) {
    return tokens(input).map(canonical).filter(Boolean);
  }

  function cardInputs() {
    return Array.from(document.querySelectorAll("input[data-cards]"));
  }

  function focusedCards() {
    const input = focusedCardsId && document.getElementById(focusedCardsId);
    return input || null;
  }

  function boxInPlay(input) {
    if (input.dataset.box === "dealer") return true;
    const row = input.closest(".box-row");
    return Array.from(row.querySelectorAll("input[data-stake]")).some((i) => i.value.trim());
  }

  function boxRows() {
    return Array.from(document.querySelectorAll(".box-row[data-position]"));
  }

  function rowEmpty(row) {
    return Array.from(row.querySelectorAll("input[data-field]")).every((i) => !i.value.trim());
  }

  /* Where the round starts: the first hand in play still short of cards or, on a fresh
     table, box 1's first stake; the dealer's cards only once every box in play is dealt. */
  function firstField() {
    const boxes = cardInputs().filter((i) => i.dataset.box !== "dealer" && boxInPlay(i));
    const open = boxes.find((i) => cardsOf(i).length < 5);
    if (open) return open;
    if (!boxes.length) {
      const row = boxRows()[0];
      if (row) return row.querySelector("input[data-stake]");
    }
    return document.getElementById("dealer-cards");
  }

  /* Enter on a box's cards follows the deal: the next box in play, else the next box's
     first stake (a new player sits down); the dealer's cards after the last box. */
  function afterCards(input) {
    if (input.dataset.box === "dealer") return null;
    const rows = boxRows();
    const later = rows.slice(rows.indexOf(input.closest(".box-row")) + 1);
    const inPlay = later.find((row) => boxInPlay(row.querySelector("input[data-cards]")));
    if (inPlay) return inPlay.querySelector("input[data-cards]");
    if (later.length) return later[0].querySelector("input[data-stake]");
    return document.getElementById("dealer-cards");
  }

  /* Enter elsewhere moves to the next field; on an empty box's stake it means the boxes
     are done, and goes to the dealer's cards. */
  function afterField(input) {
    const row = input.closest(".box-row");
    if (input.hasAttribute("data-stake") && row && rowEmpty(row)) {
      return document.getElementById("dealer-cards");
    }
    const fields = Array.from(input.form.querySelectorAll("input[data-field]"));
    return fields[fields.indexOf(input) + 1] || null;
  }

  /* The picker's target is outlined only while the focus is elsewhere than a field (on
     the picker): one ring at a time. */
  function markFocused(input) {
    cardInputs().forEach((i) => i.classList.toggle("focused", i === input));
    focusedCardsId = input ? input.id : null;
  }

  function focusOn(input) {
    if (!input) return;
    input.focus();
    if (input.select) input.select();
    markFocused(input.hasAttribute("data-cards") ? input : null);
  }

  /* Grey the picker's cards that some hand holds; outline those of the focused hand. */
  function syncPicker() {
    const owner = new Map();
    cardInputs().forEach((input) => cardsOf(input).forEach((card) => owner.set(card, input.id)));
    const mine = focusedCardsId;
    document.querySelectorAll("[data-pick]").forEach((button) => {
      const holder = owner.get(button.dataset.pick);
      button.classList.toggle("used", Boolean(holder));
      button.classList.toggle("mine", Boolean(holder) && holder === mine);
      button.setAttribute("aria-pressed", holder ? "true" : "false");
    });
  }

  /* A hand still short of its cards (one to four of Niu Niu's five) is drawn here, as the
     server's hand partial draws it: the faces, copied from the card picker's, and "3 of 5"
     in the page's language (the round form's data-msg-count). Only when the server would
     read the field the same: every token a card, none twice, none in another hand, every
     field in plain characters. A whole hand, an unreadable token or a card twice is the
     server's to read and to say (the field's hx-get), and it stays the judge of every card
     when the round is previewed. The floor asks the server six times a round instead of
     thirty (docs/BENCHMARKS.md "floor"); tests/browser/test_hand_drawn_here.py holds the
     two drawings equal. */
  const PLAIN = /^[A-Za-z0-9 \t,;\uFE0F♠♤♥♡♣♧♦♢]*$/;

  function shortHand(input) {
    const size = Number(input.dataset.handSize);
    const region = input.dataset.hand ? document.getElementById(input.dataset.hand) : null;
    const words = input.form ? input.form.dataset.msgCount : "";
    if (!size || !region || !words) return null;
    const fields = cardInputs();
    if (!fields.every((field) => PLAIN.test(field.value))) return null;
    const cards = tokens(input).map(canonical);
    if (cards.length >= size || cards.some((card) => !card)) return null;
    if (new Set(cards).size < cards.length) return null;
    const elsewhere = new Set(fields.filter((field) => field !== input).flatMap(cardsOf));
    if (cards.some((card) => elsewhere.has(card))) return null;
    const faces = cards.map((card) => document.querySelector(`[data-pick="${card}"] .card`));
    if (faces.some((face) => !face)) return null;
    return { region, cards, faces, words };
  }

  function drawShortHand(hand) {
    const region = hand.region;
    const shown = Array.from(region.querySelectorAll(".five > [data-card]"), (f) => f.dataset.card);
    const drawnSo = region.className === "hand" && !region.querySelector(".split, .error")
      && (hand.cards.length ? region.querySelector(".count") !== null : !region.children.length);
    if (drawnSo && shown.join(" ") === hand.cards.join(" ")) return;
    region.className = "hand";
    if (!hand.cards.length) {
      region.replaceChildren();
      return;
    }
    const five = document.createElement("div");
    five.className = "five";
    hand.faces.forEach((face) => five.append(face.cloneNode(true)));
    const felt = document.createElement("div");
    felt.className = "felt";
    felt.append(five);
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = hand.words.replace("%(count)s", String(hand.cards.length));
    region.replaceChildren(felt, " ", count);
  }

  /* The field's hand drawn here if it is short (shortHand); false when it is the server's. */
  function drawnHere(input) {
    const hand = shortHand(input);
    if (hand) drawShortHand(hand);
    return Boolean(hand);
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function nextCardsField(from) {
    const inputs = cardInputs();
    const start = inputs.indexOf(from);
    for (let i = start + 1; i < inputs.length; i += 1) {
      if (boxInPlay(inputs[i]) && cardsOf(inputs[i]).length < 5) return inputs[i];
    }
    return null;
  }

  function toast(message) {
    const box = document.getElementById("toast");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  /* A click on the picker types the card into the focused hand (or takes it back out). */
  function pick(button) {
    const card = button.dataset.pick;
    let input = focusedCards();
    if (!input) {
      input = cardInputs().find((i) => boxInPlay(i) && cardsOf(i).length < 5) || cardInputs()[0];
      if (!input) return;
    }
    const holder = cardInputs().find((i) => cardsOf(i).includes(card));
    if (holder && holder !== input) {
      const hand = holder.getAttribute("aria-label").split(":")[0];
      toast(document.body.dataset.msgUsed.replace("%(card)s", button.title).replace("%(hand)s", hand));
      return;
    }
    let parts = tokens(input);
    if (holder === input) {
      parts = parts.filter((token) => canonical(token) !== card);
    } else if (cardsOf(input).length >= 5) {
      return;
    } else {
      parts.push(card);
    }
    input.value = parts.join(" ");
    changed(input);
    markFocused(input);
    syncPicker();
    if (cardsOf(input).length === 5) {
      const next = nextCardsField(input);
      if (next) {
        next.focus();
        markFocused(next);
        syncPicker();
      }
    } else {
      input.focus();
    }
  }

  /* No preview while a Confirm is in flight: its answer would land in the next round. */
  function previewNow() {
    const form = document.getElementById("round-form");
    if (!form || confirming) return;
    const button = document.getElementById("preview-button");
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else form.submit();
  }

  function confirmNow() {
    if (confirming || roundUntouched) return;
    const confirm = document.getElementById("confirm");
    const preview = document.getElementById("preview");
    if (confirm && !confirm.disabled && preview && !preview.classList.contains("stale")) {
      confirm.click();  // htmx:beforeRequest marks it in flight before the next key
    } else {
      previewNow();
    }
  }

  /* Enter moves on (from a card field to the next hand's cards); Enter on the dealer's
     cards previews; Ctrl+Enter confirms a fresh preview (or previews first). */
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    const target = event.target;
    if (event.ctrlKey || event.metaKey) {
      if (document.getElementById("round-form")) {
        event.preventDefault();
        if (!event.repeat) confirmNow();
      }
      return;
    }
    if (!(target instanceof HTMLInputElement) || !target.form || target.form.id !== "round-form") return;
    event.preventDefault();
    if (target.hasAttribute("data-last")) {
      previewNow();
      return;
    }
    focusOn(target.hasAttribute("data-cards") ? afterCards(target) : afterField(target));
  });

  /* The focus anywhere but a hand or the picker leaves no picker target behind it. */
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (!target.matches || target.matches("[data-pick]")) return;
    markFocused(target.matches("input[data-cards]") ? target : null);
    syncPicker();
  });

  document.addEventListener("mousedown", (event) => {
    // Keep the focus in the hand being filled when a picker card is pressed.
    if (event.target.closest && event.target.closest("[data-pick]")) event.preventDefault();
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-pick]");
    if (button) {
      event.preventDefault();
      pick(button);
      return;
    }
    if (event.target.closest && event.target.closest("[data-clear-cards]")) {
      cardInputs().forEach((input) => {
        if (input.value) {
          input.value = "";
          changed(input);
        }
      });
      focusOn(firstField());
      syncPicker();
    }
  });

  /* Any change to the round after its preview makes the preview stale: Confirm waits for
     a new preview (the server refuses a confirmation that does not match it anyway). */
  document.addEventListener("input", (event) => {
    const form = event.target.form;
    if (form && form.id === "round-form") {
      roundUntouched = false;
      const preview = document.getElementById("preview");
      const confirm = document.getElementById("confirm");
      if (preview && confirm) {
        preview.classList.add("stale");
        confirm.disabled = true;
      }
      if (event.target.matches("input[data-cards]")) {
        syncPicker();
        /* Drawn now; an answer still on its way for what the field held before is dropped,
           so it cannot draw over this. */
        if (drawnHere(event.target)) {
          const abort = { bubbles: true, detail: { elt: event.target } };
          event.target.dispatchEvent(new CustomEvent("htmx:abort", abort));
        }
      }
      const row = event.target.closest(".box-row");
      if (row && row.id !== "box-dealer") {
        const filled = Array.from(row.querySelectorAll("input[data-stake], input[data-cards]"));
        row.classList.toggle("in-play", filled.some((input) => input.value.trim()));
      }
    }
    const chips = event.target.closest && event.target.closest("[data-chip-total]");
    if (chips) chipTotals(chips);
  });

  /* Chip counts: each line's value, the total and, when closing, the variance, in the
     venue's grouping when the total names it (casino.kernel.money.Grouping). */
  const GROUPINGS = { comma: "en-US", dot: "de-DE", space: "fr-FR" };
  /* The thousands mark and the decimal mark of each grouping, as casino.kernel.money.MARKS. */
  const MARKS = { comma: [",", "."], dot: [".", ","], space: ["\u00a0", ","] };

  /* An amount typed in the venue's grouping or as plain digits, as the server reads it
     (casino.kernel.money.parse_grouped): 0 for a blank, NaN for what the server refuses. */
  function readAmount(text, grouping) {
    const [thousands, point] = MARKS[grouping] || MARKS.comma;
    const cleaned = text.replace(/[\s_\u00a0\u202f]/g, "");
    if (!cleaned) return 0;
    const [whole, fraction, ...rest] = cleaned.split(point);
    if (rest.length || (fraction !== undefined && !/^\d{1,2}$/.test(fraction))) return NaN;
    const grouped = new RegExp("^\\d{1,3}(\\" + thousands + "\\d{3})+$");
    const digits = thousands.trim() && grouped.test(whole) ? whole.split(thousands).join("") : whole;
    if (!/^\d{1,15}$/.test(digits)) return NaN;
    return parseFloat(fraction === undefined ? digits : digits + "." + fraction);
  }

  function formatter(currency, grouping) {
    const places = { VND: 0, KRW: 0, JPY: 0 }[currency] ?? 2;
    const locale = GROUPINGS[grouping] || "en-US";
    const format = new Intl.NumberFormat(locale, { minimumFractionDigits: places, maximumFractionDigits: places });
    // fr-FR groups with a narrow no-break space; the server writes a no-break space.
    return { format: (value) => format.format(value).replace(/\u202f/g, "\u00a0") };
  }

  function chipTotals(form) {
    const totalCell = form.querySelector("[data-total]");
    const grouping = totalCell ? totalCell.dataset.grouping : "";
    const format = formatter(totalCell ? totalCell.dataset.currency : "", grouping);
    const thousands = (MARKS[grouping] || MARKS.comma)[0];
    let total = 0;
    let expectedTotal = 0;
    form.querySelectorAll("input[data-denomination]").forEach((input) => {
      const count = parseInt(input.value.replace(/[\s_]/g, "").split(thousands).join(""), 10) || 0;
      const value = count * parseFloat(input.dataset.denomination);
      total += value;
      const line = input.closest("tr").querySelector("[data-line]");
      if (line) line.textContent = count ? format.format(value) : "";
      /* Opening: each denomination's difference from the table's inventory, in chips. */
      const difference = input.closest("tr").querySelector("[data-difference]");
      if (difference && input.dataset.expected !== undefined) {
        const expected = parseInt(input.dataset.expected, 10) || 0;
        expectedTotal += expected * parseFloat(input.dataset.denomination);
        const chips = count - expected;
        difference.textContent = chips ? (chips > 0 ? "+" : "") + chips : "";
        difference.className = "num " + (chips === 0 ? "" : chips > 0 ? "plus" : "minus");
      }
    });
    if (totalCell) totalCell.textContent = format.format(total);
    const differenceTotal = form.querySelector("[data-difference-total]");
    if (differenceTotal) {
      const off = total - expectedTotal;
      differenceTotal.textContent = off ? (off > 0 ? "+" : "") + format.format(off) : "";
      differenceTotal.className = "num " + (off === 0 ? "" : off > 0 ? "plus" : "minus");
    }
    /* Closing: the tray counted against the tray expected (the drop is no part of it). */
    const trayDifference = form.querySelector("[data-tray-difference]");
    if (trayDifference && form.dataset.tray) {
      const off = total - parseFloat(form.dataset.tray);
      trayDifference.textContent = (off > 0 ? "+" : "") + format.format(off);
      trayDifference.className = "num " + (off === 0 ? "" : off > 0 ? "plus" : "minus");
    }
    const variance = form.querySelector("[data-variance]");
    if (variance && form.dataset.expected) {
      const drop = form.querySelector("input[data-drop]");
      const dropped = drop ? readAmount(drop.value, grouping) : 0;
      const difference = total + dropped - parseFloat(form.dataset.expected);
      if (Number.isNaN(difference)) {
        variance.textContent = "";  // the drop as typed is refused, with how to write it
        variance.className = "num";
        return;
      }
      variance.textContent = (difference > 0 ? "+" : "") + format.format(difference);
      variance.className = "num " + (difference === 0 ? "" : difference > 0 ? "plus" : "minus");
    }
  }

  document.addEventListener("change", (event) => {
    const select = event.target;
    if (select.matches && select.matches("select[data-autosubmit]")) {
      if (!select.value && select.form.dataset.venueAction) select.form.action = select.form.dataset.venueAction;
      select.form.submit();
    }
  });

  /* Refusals and lost connections, said where the dealer looks. */
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    if (xhr.status === 423) return;  // the console is locked: its lock screen says so (lock.js)
    const body = document.body.dataset;
    const type = xhr.getResponseHeader("Content-Type") || "";
    let message = body.msgError;
    if (type.startsWith("text/plain") && xhr.responseText) message = xhr.responseText;
    else if (xhr.status === 403) message = body.msg403;
    else if (xhr.status === 404) message = body.msg404;
    toast(message);
  });
  document.addEventListener("htmx:sendError", () => toast(document.body.dataset.msgOffline));

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt && event.detail.elt.id === "confirm") confirming = true;
  });

  /* A card field's hand partial is not asked for a hand drawn here (shortHand): the field's
     hx-trigger fires 120 ms after the last key, and the field is read as it is then. */
  document.addEventListener("htmx:confirm", (event) => {
    const input = event.detail.elt;
    if (!input || !input.matches || !input.matches("input[data-cards]")) return;
    if (drawnHere(input)) event.preventDefault();
  });
  /* The answer to a Confirm replaces the button, whose own events no longer reach the
     document: its answer is seen where it is swapped in. */
  function confirmAnswered(event) {
    const config = event.detail.requestConfig;
    const elt = (config && config.elt) || event.detail.elt;
    if (elt && elt.id === "confirm") confirming = false;
  }
  document.addEventListener("htmx:beforeSwap", confirmAnswered);
  document.addEventListener("htmx:afterRequest", confirmAnswered);

  /* A round was just settled: the next round starts where the deal starts. On the swap,
     not the settle: htmx settles 20 ms after it ends the request, and a focus moved then
     would take a dealer's first keys of the next round into another field. */
  document.addEventListener("htmx:afterSwap", () => {
    if (!justSettled) return;
    justSettled = false;
    roundUntouched = true;
    focusOn(firstField());
  });

  document.addEventListener("htmx:afterSettle", () => {
    // A form swapped back with what was typed (a refused close) shows its totals again.
    document.querySelectorAll("[data-chip-total]").forEach(chipTotals);
    const input = focusedCards();
    if (input) input.classList.add("focused");
    syncPicker();
    // Hands a preview sent before the last card was typed redrew as they were.
    cardInputs().forEach(drawnHere);
  });

  /* A preview just answered to the round's form, on a screen too short for the boxes and
     the settlement both (a tablet): the settlement and its Confirm are brought into view,
     so the dealer confirms the payouts they see. The focus stays where it was. */
  document.addEventListener("htmx:afterSettle", (event) => {
    const config = event.detail.requestConfig;
    const elt = (config && config.elt) || event.detail.elt;
    if (!elt || elt.id !== "round-form") return;
    const preview = document.getElementById("preview");
    const confirm = preview && preview.querySelector("#confirm");
    if (!confirm) return;
    const box = preview.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    if (box.height <= window.innerHeight) preview.scrollIntoView({block: "nearest"});
    else confirm.scrollIntoView({block: "end"});
  });

  /* A list that refreshes itself (data-hold-while-editing) skips its refresh while the focus
     is inside it, so nothing typed there is swapped away. In a listener rather than an
     hx-trigger filter: htmx evaluates a filter as script, which the Content-Security-Policy
     refuses. */
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (elt.hasAttribute("data-hold-while-editing") && elt.contains(document.activeElement)) {
      event.preventDefault();
    }
  });

  /* Sent by the confirm view (HX-Trigger) before its answer is swapped in. */
  document.addEventListener("console:settled", () => { justSettled = true; });

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-chip-total]").forEach(chipTotals);
    if (document.getElementById("round-form")) focusOn(firstField());
    syncPicker();
  });
})();
