/* The map recorder's enhancements (templates/play/). Everything works without this
 * file: it adds zoom/pan of the SVG map (buttons, drag, pinch, wheel) by changing its
 * viewBox, live filtering of the tile catalogue, htmx navigation for the map's SVG
 * links (offline, window.companionLocal from play-offline.js does the tap on the phone) and
 * highlighting of tiles named by data-tiles="q,r q,r". Recording offline is
 * static/play-offline.js. No inline scripts (the CSP is script-src 'self'). */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var MIN_W = 120;
  var views = {};          // user zoom per game+landscape: "x y w h"

  function parseBox(text) {
    var p = String(text || "").trim().split(/[\s,]+/).map(Number);
    return p.length === 4 && p.every(isFinite) ? p : null;
  }

  function keyOf(svg) {
    var play = svg.closest(".play");
    var land = svg.closest(".landscape");
    return (play ? play.dataset.game : "") + "/" + (land ? land.dataset.player : "");
  }

  function setBox(svg, box, remember) {
    svg.setAttribute("viewBox", box.map(function (v) { return v.toFixed(1); }).join(" "));
    if (remember) { views[keyOf(svg)] = box.slice(); }
  }

  function zoom(svg, factor, cx, cy) {
    var box = parseBox(svg.getAttribute("viewBox"));
    var full = parseBox(svg.dataset.viewbox);
    if (!box || !full) { return; }
    var w = Math.max(MIN_W, Math.min(full[2] * 3, box[2] * factor));
    var h = w * box[3] / box[2];
    if (cx === undefined) { cx = box[0] + box[2] / 2; cy = box[1] + box[3] / 2; }
    var fx = (cx - box[0]) / box[2], fy = (cy - box[1]) / box[3];
    setBox(svg, [cx - fx * w, cy - fy * h, w, h], true);
  }

  function toSvg(svg, clientX, clientY) {
    var box = parseBox(svg.getAttribute("viewBox"));
    var rect = svg.getBoundingClientRect();
    var scale = Math.max(box[2] / rect.width, box[3] / rect.height);
    var offX = (rect.width * scale - box[2]) / 2, offY = (rect.height * scale - box[3]) / 2;
    return [box[0] - offX + (clientX - rect.left) * scale,
            box[1] - offY + (clientY - rect.top) * scale, scale];
  }

  /* Hexes never shrink below a finger (44 CSS px tall): a map too big for the screen
   * opens zoomed in, centred on the chosen hex (else the last tile), and pans. */
  var HEX_H = 40 * Math.sqrt(3), MIN_PX = 46;
  function keepTappable(svg) {
    var full = parseBox(svg.dataset.viewbox);
    var rect = svg.getBoundingClientRect();
    if (!full || !rect.width || !rect.height) { return; }
    var scale = Math.min(rect.width / full[2], rect.height / full[3]);
    if (scale * HEX_H >= MIN_PX) { return; }
    var want = MIN_PX / HEX_H;
    var w = rect.width / want, h = rect.height / want;
    var focus = svg.querySelector(".slot.selected") || svg.querySelector(".tile.preview") ||
      svg.querySelector(".tile.last");
    var cx = full[0] + full[2] / 2, cy = full[1] + full[3] / 2;
    var t = focus && /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(focus.getAttribute("transform") || "");
    if (t) { cx = Number(t[1]); cy = Number(t[2]); }
    function clamp(start, lo, size, span) {   /* no blank beyond the map's edge */
      return size >= span ? lo + (span - size) / 2 : Math.max(lo, Math.min(lo + span - size, start));
    }
    setBox(svg, [clamp(cx - w / 2, full[0], w, full[2]), clamp(cy - h / 2, full[1], h, full[3]),
                 w, h], false);
  }

  function initMap(svg) {
    if (svg.dataset.ready) { return; }
    svg.dataset.ready = "1";
    var saved = views[keyOf(svg)];
    if (saved) { setBox(svg, saved, false); } else { keepTappable(svg); }
    var pointers = {};
    var moved = 0;
    var start = null;

    svg.addEventListener("pointerdown", function (e) {
      pointers[e.pointerId] = [e.clientX, e.clientY];
      moved = 0;
      start = null;
    });
    svg.addEventListener("pointermove", function (e) {
      var last = pointers[e.pointerId];
      if (!last) { return; }
      var ids = Object.keys(pointers);
      if (ids.length === 1) {
        var dx = e.clientX - last[0], dy = e.clientY - last[1];
        moved += Math.abs(dx) + Math.abs(dy);
        if (moved > 8) {
          var box = parseBox(svg.getAttribute("viewBox"));
          var scale = toSvg(svg, e.clientX, e.clientY)[2];
          setBox(svg, [box[0] - dx * scale, box[1] - dy * scale, box[2], box[3]], true);
          if (!svg.hasPointerCapture(e.pointerId)) { svg.setPointerCapture(e.pointerId); }
        }
      } else if (ids.length === 2) {
        var other = pointers[ids[0] === String(e.pointerId) ? ids[1] : ids[0]];
        var before = Math.hypot(last[0] - other[0], last[1] - other[1]);
        var after = Math.hypot(e.clientX - other[0], e.clientY - other[1]);
        if (before > 0 && after > 0) {
          var mid = toSvg(svg, (e.clientX + other[0]) / 2, (e.clientY + other[1]) / 2);
          zoom(svg, before / after, mid[0], mid[1]);
        }
        moved += 100;
      }
      pointers[e.pointerId] = [e.clientX, e.clientY];
    });
    svg.addEventListener("dragstart", function (e) { e.preventDefault(); });  /* links */
    function up(e) { delete pointers[e.pointerId]; }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("click", function (e) {
      if (moved > 8) { e.preventDefault(); e.stopPropagation(); moved = 0; }
    }, true);
    svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      var p = toSvg(svg, e.clientX, e.clientY);
      zoom(svg, e.deltaY > 0 ? 1.15 : 1 / 1.15, p[0], p[1]);
    }, { passive: false });
  }

  function activeMaps(from) {
    var play = from.closest(".play") || document;
    var maps = play.querySelectorAll(".landscape.active .hexmap");
    return maps.length ? maps : play.querySelectorAll(".hexmap");
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-zoom]");
    if (button) {
      activeMaps(button).forEach(function (svg) {
        var how = button.dataset.zoom;
        if (how === "fit") {
          delete views[keyOf(svg)];
          setBox(svg, parseBox(svg.dataset.viewbox), false);
        } else {
          zoom(svg, how === "in" ? 1 / 1.4 : 1.4);
        }
      });
      return;
    }
    var link = e.target.closest("svg a[href]");
    if (link && window.companionLocal && window.companionLocal.tap(link)) {
      e.preventDefault();   /* offline: play-offline.js did the tap on the phone */
      return;
    }
    if (link && window.htmx && document.getElementById("play")) {
      e.preventDefault();
      var href = link.getAttribute("href");
      window.htmx.ajax("GET", href, { target: "#play", swap: "outerHTML" }).then(function () {
        history.pushState({ htmx: true }, "", href);
      });
      return;
    }
    var named = e.target.closest("[data-tiles]");
    if (named && !e.target.closest("summary")) { highlight(named); }
  });

  /* Tiles named by data-tiles="q,r q,r" get the class "hl" (a score explanation,
   * a marker row); opening a <details data-tiles> does the same. */
  function highlight(el) {
    var root = el.closest(".play, .sheet-wrap") || document;
    var want = {};
    String(el.dataset.tiles || "").trim().split(/\s+/).forEach(function (t) { if (t) { want[t] = 1; } });
    root.querySelectorAll(".hexmap .tile").forEach(function (g) {
      var key = g.dataset.q + "," + g.dataset.r;
      g.classList.toggle("hl", !!want[key]);
    });
    root.querySelectorAll("[data-tiles].hl").forEach(function (x) { x.classList.remove("hl"); });
    el.classList.add("hl");
  }
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.matches && d.matches("details[data-tiles]") && d.open) { highlight(d); }
  }, true);

  /* Live filter of the catalogue: letters clockwise from any edge (any rotation). */
  function matches(pattern, code) {
    return !pattern || (code + code.slice(0, 5)).indexOf(pattern) >= 0;
  }
  document.addEventListener("input", function (e) {
    var input = e.target.closest("[data-filter]");
    if (!input) { return; }
    var pattern = input.value.toUpperCase().replace(/[^FGVTSM]/g, "");
    var box = input.closest(".chooser").querySelector(".catalogue-box");
    if (box && pattern) { box.open = true; }
    var list = input.closest(".chooser").querySelector(".catalogue");
    list.querySelectorAll("li[data-code]").forEach(function (li) {
      li.hidden = !matches(pattern, li.dataset.code);
    });
  });

  /* Offline (forms marked data-queue, the taps of the recorder): static/play-offline.js.
   * window.companionMap.refit(svg): after it redrew a map, its saved zoom or the fit. */
  window.companionMap = {
    refit: function (svg) {
      var saved = views[keyOf(svg)];
      if (saved) { setBox(svg, saved, false); return; }
      setBox(svg, parseBox(svg.dataset.viewbox), false);
      keepTappable(svg);
    }
  };

  function initAll(root) {
    (root || document).querySelectorAll(".hexmap").forEach(initMap);
    var error = document.getElementById("play-error");
    if (error && error.scrollIntoView && root !== document) { error.scrollIntoView({ block: "center" }); }
    else if (root && root.id === "play") {
      /* after every swap (a hex, a tile, a placement): the map at the top of the screen */
      var top = root.getBoundingClientRect().top + window.pageYOffset;
      window.scrollTo(0, Math.max(0, top - 4));
    }
  }
  document.addEventListener("DOMContentLoaded", function () { initAll(document); });
  document.addEventListener("htmx:load", function (e) { initAll(e.target); });
  if (document.readyState !== "loading") { initAll(document); }
})();
