/* Campaign sheet: tapping a glowing circle of the advancement track submits the matching
 * "cross" form (the same POST as its button, with the campaign version and CSRF token;
 * htmx swaps the new sheet in). Without this file the circle links jump to that button.
 * A new unlock moment is scrolled into view after the swap.
 */
(function () {
  "use strict";

  document.addEventListener("click", function (ev) {
    var link = ev.target instanceof Element ? ev.target.closest("a[data-cross]") : null;
    if (!link) { return; }
    var form = document.getElementById(link.getAttribute("data-cross"));
    if (!(form instanceof HTMLFormElement)) { return; }
    ev.preventDefault();
    if (form.classList.contains("sending")) { return; }
    form.classList.add("sending");
    link.classList.add("sending");
    if (typeof form.requestSubmit === "function") { form.requestSubmit(); } else { form.submit(); }
  });

  function showFresh() {
    var fresh = document.querySelector(".moment.fresh");
    if (fresh && fresh.scrollIntoView) { fresh.scrollIntoView({ block: "center", behavior: "auto" }); }
  }
  document.addEventListener("htmx:afterSettle", showFresh);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showFresh);
  } else { showFresh(); }
})();
