/* The navigation bar outside the console (reports, admin): the language applies as soon
   as it is picked; "Venue's language" forgets the pick (console.js does the same on the
   console). */
(() => {
  "use strict";
  document.addEventListener("change", (event) => {
    const select = event.target;
    if (!select.matches || !select.matches("select[data-nav-autosubmit]")) return;
    if (!select.value && select.form.dataset.venueAction) select.form.action = select.form.dataset.venueAction;
    select.form.submit();
  });
})();
