/* Small progressive enhancements (the pages work without this file).
 * - Score sheet: opening a number's <details data-tiles="q,r q,r" data-player="i"> highlights
 *   those tiles in the map <svg data-map="i"> of the same [data-sheet] container; tapping an
 *   explanation item <li data-tiles> highlights only its tiles.
 * - Language select submits itself; the service worker /sw.js is registered.
 */
(function () {
  "use strict";

  function container(el) { return el.closest("[data-sheet]") || document; }

  function mapFor(el) {
    var holder = el.closest("[data-player]");
    var index = holder ? holder.getAttribute("data-player") : "0";
    return container(el).querySelector('svg[data-map="' + index + '"]') ||
      container(el).querySelector("svg[data-map]");
  }

  function clear(root) {
    root.querySelectorAll(".tile.hl, .tile.dim").forEach(function (t) {
      t.classList.remove("hl", "dim");
    });
  }

  function highlight(svg, tiles) {
    if (!svg) { return; }
    clear(svg);
    var keys = (tiles || "").split(" ").filter(Boolean);
    if (!keys.length) { return; }
    svg.querySelectorAll(".tile").forEach(function (t) {
      t.classList.add(keys.indexOf(t.getAttribute("data-hex")) >= 0 ? "hl" : "dim");
    });
  }

  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (!(d instanceof HTMLDetailsElement) || !d.hasAttribute("data-tiles")) { return; }
    var root = container(d);
    if (d.open) {
      root.querySelectorAll("details[data-tiles][open]").forEach(function (other) {
        if (other !== d) { other.open = false; }
      });
      highlight(mapFor(d), d.getAttribute("data-tiles"));
    } else if (!root.querySelector("details[data-tiles][open]")) {
      var svg = mapFor(d);
      if (svg) { clear(svg); }
    }
  }, true);

  document.addEventListener("click", function (ev) {
    var li = ev.target instanceof Element ? ev.target.closest("li[data-tiles]") : null;
    if (!li || ev.target.closest("a")) { return; }
    ev.stopPropagation();
    container(li).querySelectorAll("li.hl-item").forEach(function (x) { x.classList.remove("hl-item"); });
    li.classList.add("hl-item");
    highlight(mapFor(li), li.getAttribute("data-tiles"));
  });

  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el instanceof HTMLSelectElement && el.hasAttribute("data-autosubmit") && el.form) {
      el.form.submit();
    }
  });

  document.addEventListener("focusin", function (ev) {
    if (ev.target instanceof HTMLInputElement && ev.target.classList.contains("share-link")) {
      ev.target.select();
    }
  });

  function init() {
    document.querySelectorAll(".lang-form").forEach(function (f) { f.classList.add("js-auto"); });
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else { init(); }
})();

/* Popovers: a score sheet's explanations (details.pad-row of the board game's pad,
 * details.duel-cell and the winner line of a Duel sheet, any details[data-popover]).
 * A tap outside or Escape closes them, so they never hide the rows below for good. */
(function () {
  "use strict";
  var OPEN = "details.pad-row[open], details.duel-cell[open], details.winner-line[open], " +
    "details[data-popover][open]";
  function closeAll(except) {
    document.querySelectorAll(OPEN).forEach(function (d) {
      if (!except || !d.contains(except)) { d.open = false; }
    });
  }
  document.addEventListener("click", function (e) {
    closeAll(e.target instanceof Node ? e.target : null);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" || e.key === "Esc") { closeAll(null); }
  });
})();

/* Pan frames (.pan-frame: the photo review's photo and map, a dispute's map): a map
 * whose tappable hexes (its svg links) would be drawn under 46 px on a phone is drawn
 * larger inside its frame, which scrolls and is panned by a finger, instead of
 * shrinking them below a finger's size; a frame with class "zoomed" doubles that.
 * Refitted after htmx swaps, on resize and on the event "fit-frames". */
(function () {
  "use strict";
  var MIN_TARGET = 46;
  function fit() {
    document.querySelectorAll(".pan-frame").forEach(function (box) {
      var svg = box.querySelector("svg");
      if (!svg) { return; }
      svg.style.width = "";
      svg.style.maxWidth = "";
      svg.style.height = "";
      svg.style.maxHeight = "none";
      var least = Infinity;
      svg.querySelectorAll("a").forEach(function (a) {
        var r = a.getBoundingClientRect();
        if (r.width && r.height) { least = Math.min(least, r.width, r.height); }
      });
      var scale = least < MIN_TARGET ? MIN_TARGET / least : 1;
      if (box.classList.contains("zoomed")) { scale *= 2; }
      var width = svg.getBoundingClientRect().width;
      if (scale > 1 && width) {
        svg.style.width = Math.ceil(width * scale) + "px";
        svg.style.maxWidth = "none";
        svg.style.height = "auto";
      }
    });
  }
  document.addEventListener("fit-frames", fit);
  document.addEventListener("htmx:afterSettle", fit);
  window.addEventListener("resize", fit);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fit);
  } else { fit(); }
})();
