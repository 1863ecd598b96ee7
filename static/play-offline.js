/* The recorder with no connection (issue 16 item 2: offline from the first tap).
 *
 * The page carries what recording needs: #play-data (templates/play/_recorder.html, built by
 * companion/web/play/offline.py) holds the catalogue with the copies left in this game's box,
 * every landscape with the turn of each tile, the edge-compatibility table generated from
 * the engine's edges_can_meet, the strings to show (in the page's language) and the HTML of
 * the place form.
 * While the phone is offline (navigator.onLine false, or a request of this page failed to
 * reach the server) or placements of this game still wait in the queue, the taps are done
 * here instead of asking the server: a free hex opens the picker (the tiles that fit there,
 * best edge matches first, tiles whose every copy is on the map hidden), a tile chooses it in
 * its best rotation, the rotation buttons turn it, Place queues the place form through
 * offline.js (window.companionQueue) and draws the tile (dashed: not sent yet), Undo takes
 * back the last placement not sent yet (or queues an undo of the last one sent). The map is
 * always the server's map plus the waiting submissions, so a reload keeps them in view.
 * When the connection returns the queue is sent in order; the server re-checks every
 * placement. A refused one is listed with the server's reason in a banner at the top of the
 * recorder (kept on the phone until dismissed); the others are kept. When nothing of this game
 * waits any more the recorder is refreshed from the server.
 * In the Duel the landscape shown follows the turn (the player with fewer turns, as
 * companion.rules.duel.turns) and the tile the other player placed this turn is chosen, with
 * its task; the picker offers the recent patterns. Redo takes back an undo still waiting in
 * the queue (Redo (n): the undos at the end of the queue). Limits: any other redo, a Duel's
 * end-of-game entry and the other pages need the connection (a tap there says so); the rules of task markers
 * (a task failing at once, wraparound) are the server's to check. The picker puts the stack
 * due first, after the placements waiting too: ``nextKind`` replays the board game's markers
 * and applies the reveal order with #play-data's ``order`` (the engine's next_tile_kind; a
 * browser test compares both after every placement of random games).
 * No inline scripts (CSP script-src 'self'). */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var REFUSED = "companion.refused.v1";
  // a request of this page failed although navigator.onLine is true, or the service
  // worker served the page from its cache for want of the network (sw.js)
  var lost = document.documentElement.hasAttribute("data-served-offline");
  var sel = null;          // the selection on the phone: {at: [q, r] | null, tile, rot}
  var selFor = null;       // the #play element sel belongs to (reset after every swap)
  var lastTap = null;      // the last tap sent to the server (done here when that fails)
  var note = "";           // a line for a tap that needs the connection
  var swaps = Promise.resolve();

  function Q() { return window.companionQueue; }
  function play() { return document.getElementById("play"); }
  function data() {
    var p = play(), el = p && p.querySelector("#play-data");
    if (!el) { return null; }
    if (el.parsed === undefined) {
      try { el.parsed = JSON.parse(el.textContent); } catch (err) { el.parsed = null; }
    }
    return el.parsed;
  }
  function scope() { var p = play(); return p ? "/play/" + p.getAttribute("data-game") : ""; }
  function field(item, name) {
    for (var i = 0; i < item.fields.length; i++) {
      if (item.fields[i][0] === name) { return item.fields[i][1]; }
    }
    return "";
  }
  function kindOf(item) {
    if (item.kind) { return item.kind; }
    var m = /\/(place|undo|redo)$/.exec(item.action);
    return m ? m[1] : "";
  }
  function queued() {
    if (!Q() || !play()) { return []; }
    var s = scope();
    return Q().items().filter(function (it) { return Q().scopeOf(it.action) === s; });
  }
  function offline() { return navigator.onLine === false || lost; }
  function local() {
    var d = data();
    return !!(d && d.local && (offline() || queued().length > 0));
  }
  function fmt(text, values) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (m, k) {
      return values[k] === undefined ? m : String(values[k]);
    });
  }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  /* ---- the engine's placement rule, from the page's table -------------------------- */

  function rotate(code, k) {
    k = ((k % 6) + 6) % 6;
    return k ? code.slice(-k) + code.slice(0, -k) : code;
  }
  function canonical(code) {
    var best = code;
    for (var k = 1; k < 6; k++) { var c = rotate(code, k); if (c < best) { best = c; } }
    return best;
  }
  function key(q, r) { return q + "," + r; }
  function isTask(section) { return !!section && section.indexOf("task") >= 0; }
  function validCode(code) { return /^[FGVTSM]{6}$/.test(code || ""); }

  /* ---- the reveal order (companion.rules.game.next_tile_kind) ------------------------ */
  /* Edge -> its area on the tile (rules.md R-1: one area per terrain on a tile, unless the
   * tile's split= divides it, e.g. "F:01/3": forest edges 0 1 and forest edge 3). */
  function areaIds(c) {
    if (c.areas) { return c.areas; }
    var ids = c.code.split("");
    (c.split ? c.split.split(",") : []).forEach(function (part) {
      var letter = part.split(":")[0];
      (part.split(":")[1] || "").split("/").forEach(function (group, g) {
        group.split("").forEach(function (e) { ids[Number(e)] = letter + g; });
      });
    });
    c.areas = ids;
    return ids;
  }

  /* The territory of area ``id`` of cell ``c`` on the map ``at``: its size in tiles and
   * how many of its edges face an empty hex (rules.md section 1). */
  function territory(d, at, c, id) {
    var seen = {}, tiles = {}, size = 0, open = 0, todo = [[c, id]];
    seen[key(c.q, c.r) + "/" + id] = true;
    while (todo.length) {
      var n = todo.pop(), cell = n[0], ids = areaIds(cell);
      if (!tiles[key(cell.q, cell.r)]) { tiles[key(cell.q, cell.r)] = true; size += 1; }
      for (var e = 0; e < 6; e++) {
        if (ids[e] !== n[1]) { continue; }
        var o = at[key(cell.q + d.dirs[e][0], cell.r + d.dirs[e][1])], back = (e + 3) % 6;
        if (!o) { open += 1; continue; }
        if (o.code[back] !== cell.code[e]) { continue; }
        var other = areaIds(o)[back], k = key(o.q, o.r) + "/" + other;
        if (!seen[k]) { seen[k] = true; todo.push([o, other]); }
      }
    }
    return { size: size, open: open };
  }

  /* The stack the next tile comes from after ``cells`` (a board-game landscape in placement
   * order): the markers replayed (rules.md section 3: a marker of value N on the largest
   * area of its terrain on its tile completes at exactly N tiles, fails beyond N or closed
   * short of it), then the reveal order of section 4 with #play-data's order. */
  function nextKind(d, cells) {
    var o = d.order;
    if (!o) { return null; }
    var at = {}, markers = [], active = 0, tasks = 0, changed = false;
    cells.forEach(function (c) {
      at[key(c.q, c.r)] = c;
      tasks += c.task ? 1 : 0;
      var spec = (c.taskText || "").split("/"), letter = d.letters[spec[0]], value = Number(spec[1]);
      if (letter && value) {
        var ids = areaIds(c), best = null, most = 0;
        for (var e = 0; e < 6; e++) {
          var n = ids.filter(function (id) { return id === ids[e]; }).length;
          if (c.code[e] === letter && n > most) { best = ids[e]; most = n; }
        }
        markers.push({ cell: c, id: best, value: value, active: true });
        active += 1;
      }
      var placed = active;
      markers.forEach(function (m) {
        if (!m.active) { return; }
        var t = territory(d, at, m.cell, m.id);
        if (t.size >= m.value || !t.open) { m.active = false; active -= 1; }
      });
      changed = active < placed;
    });
    var turn = cells.length + 1, landscape = cells.length - tasks;
    if (turn <= o.first) { return "task"; }
    if (landscape >= o.landscape) { return changed ? "task" : "end"; }
    return active < o.min_active && tasks < o.tasks ? "task" : "landscape";
  }

  function lastTurn(land) { return land.cells.length ? land.cells[land.cells.length - 1].turn : 0; }

  /* companion.rules.recording.last_section: the landscape of the most recent placement
   * (the most turns; on a tie the later one). */
  function lastLand(lands) {
    var best = null, turn = -1;
    lands.forEach(function (l) {
      if (l.cells.length && lastTurn(l) >= turn) { best = l; turn = lastTurn(l); }
    });
    return best;
  }

  /* companion.rules.duel.turns.duel_turn: the player with fewer turns places (the first on a
   * tie); the tile offered is the other player's placement of that turn. */
  function duelTurn(d, lands) {
    var best = null;
    lands.forEach(function (l) { if (!best || lastTurn(l) < lastTurn(best)) { best = l; } });
    var number = lastTurn(best) + 1, offered = null;
    lands.forEach(function (o) {
      if (o === best || offered || lastTurn(o) < number) { return; }
      for (var i = 0; i < o.cells.length; i++) {
        if (o.cells[i].turn === number && !o.cells[i].special) { offered = o.cells[i]; break; }
      }
    });
    return { player: best.player, number: number, offered: offered };
  }

  /* A cell of #play-data's lands: [q, r, code, task text, Duel special, turn, split?]. */
  function serverCell(c) {
    return { q: c[0], r: c[1], code: c[2], task: !!c[3], taskText: c[3], special: !!c[4],
             turn: c[5], split: c[6] || null, server: true };
  }

  /* The server's landscapes with the waiting submissions applied, the copies left in the box,
   * whose turn it is; m.cells / m.at / m.kept are the landscape shown (m.player). */
  function model(d) {
    var lands = d.lands.map(function (l) {
      return { player: l.player, cells: l.cells.map(serverCell) };
    });
    var byPlayer = {};
    lands.forEach(function (l) { byPlayer[l.player] = l; });
    var left = d.tiles.map(function (t) { return t[2]; });
    var waiting = queued();
    waiting.forEach(function (it) {
      var kind = kindOf(it);
      if (kind === "place" && validCode(field(it, "code"))) {
        var land = byPlayer[field(it, "player")] || lands[0];
        var special = d.duel_specials.indexOf(field(it, "special")) >= 0;
        var type = field(it, "task_type"), value = field(it, "task_value");
        var c = { q: Number(field(it, "q")), r: Number(field(it, "r")), code: field(it, "code"),
                  task: !!type, taskText: type ? type + (value ? "/" + value : "") : "", value: value,
                  special: special, turn: lastTurn(land) + (special && land.cells.length ? 0 : 1), id: it.id };
        land.cells.push(c);
        if (!d.duel) { count(d, left, c, -1); }
      } else if (kind === "undo") {
        var from = lastLand(lands);
        if (from) { var gone = from.cells.pop(); if (!d.duel) { count(d, left, gone, 1); } }
      }
    });
    lands.forEach(function (l) {
      l.at = {};
      l.cells.forEach(function (c) { l.at[key(c.q, c.r)] = c; });
      l.kept = l.cells.filter(function (c) { return c.server; }).length;
    });
    var m = { lands: lands, left: left, waiting: waiting.length, turn: d.duel ? duelTurn(d, lands) : null };
    var due = d.order ? nextKind(d, lands[0].cells) : (waiting.length ? null : d.due);
    m.due = due === "task" || due === "landscape" ? due : null;
    var shown = d.duel ? byPlayer[(sel && sel.player) || m.turn.player] || byPlayer[m.turn.player] : lands[0];
    m.land = shown;
    m.player = shown.player;
    m.cells = shown.cells;
    m.at = shown.at;
    m.kept = shown.kept;
    m.offered = d.duel && m.turn.player === m.player ? m.turn.offered : null;
    return m;
  }

  /* One copy of ``cell``'s tile leaves (-1) or returns to (+1) the box: the section its kind
   * (task or landscape) prefers, among the sections in play. */
  function count(d, left, cell, delta) {
    var c = canonical(cell.code), best = -1, bestScore = -1;
    d.tiles.forEach(function (t, i) {
      if (canonical(t[0]) !== c || !t[4]) { return; }
      if (delta < 0 ? left[i] <= 0 : left[i] >= t[3]) { return; }
      var score = isTask(t[1]) === cell.task ? 1 : 0;
      if (score > bestScore) { best = i; bestScore = score; }
    });
    if (best >= 0) { left[best] += delta; }
  }

  function illegal(d, m, at, code) {
    if (m.at[key(at[0], at[1])]) { return "hex-occupied"; }
    var n = 0;
    for (var e = 0; e < 6; e++) {
      var other = m.at[key(at[0] + d.dirs[e][0], at[1] + d.dirs[e][1])];
      if (!other) { continue; }
      n += 1;
      if (d.edges[code[e]].indexOf(other.code[(e + 3) % 6]) < 0) { return "edge-mismatch"; }
    }
    return m.cells.length && !n ? "touches-nothing" : null;
  }

  /* companion.rules.box.fit: the best legal rotation (most edges meeting the same terrain). */
  function fit(d, m, at, code) {
    if (m.at[key(at[0], at[1])]) { return null; }
    var seen = {}, best = null, legal = [], neighbours = 0;
    for (var k = 0; k < 6; k++) {
      var turned = rotate(code, k);
      if (seen[turned]) { continue; }
      seen[turned] = true;
      if (illegal(d, m, at, turned) !== null) { continue; }
      legal.push(k);
      var same = 0;
      neighbours = 0;
      for (var e = 0; e < 6; e++) {
        var other = m.at[key(at[0] + d.dirs[e][0], at[1] + d.dirs[e][1])];
        if (!other) { continue; }
        neighbours += 1;
        if (turned[e] === other.code[(e + 3) % 6]) { same += 1; }
      }
      if (best === null || same > best[0]) { best = [same, k]; }
    }
    if (best === null) { return null; }
    return { code: code, rotation: best[1], matches: best[0], neighbours: neighbours,
             legal: legal, placed: rotate(code, best[1]) };
  }

  function frontier(d, m) {
    if (!m.cells.length) { return [[0, 0]]; }
    var seen = {}, out = [];
    m.cells.forEach(function (c) {
      d.dirs.forEach(function (dir) {
        var q = c.q + dir[0], r = c.r + dir[1], k = key(q, r);
        if (!m.at[k] && !seen[k]) { seen[k] = true; out.push([q, r]); }
      });
    });
    return out;
  }

  /* The picker (companion.web.play.views.picker): catalogue tiles with a copy left that fit. */
  /* companion.web.play.views.recent_patterns: distinct tiles placed lately, newest first. */
  function recent(m) {
    var placed = [], seen = {}, out = [];
    m.lands.forEach(function (l) {
      l.cells.forEach(function (c, i) { placed.push([i, placed.length, c.code]); });
    });
    placed.sort(function (a, b) { return (b[0] - a[0]) || (b[1] - a[1]); });
    for (var i = 0; i < placed.length && out.length < 12; i++) {
      var c = canonical(placed[i][2]);
      if (!seen[c]) { seen[c] = true; out.push(placed[i][2]); }
    }
    return out;
  }

  function byMatches(a, b) {
    return (b.matches - a.matches) || ((a.neighbours - a.matches) - (b.neighbours - b.matches));
  }

  function picks(d, m, at) {
    if (d.duel) {
      return recent(m).map(function (code) { return fit(d, m, at, code); })
        .filter(function (f) { return f; }).sort(byMatches);
    }
    var order = [], byCode = {};
    d.tiles.forEach(function (t, i) {
      if (m.left[i] <= 0) { return; }
      if (!Object.prototype.hasOwnProperty.call(byCode, t[0])) { order.push(t[0]); }
      byCode[t[0]] = i;
    });
    var found = [];
    order.forEach(function (code) {
      var f = fit(d, m, at, code);
      if (f) { f.index = byCode[code]; found.push(f); }
    });
    found.sort(byMatches);
    if (m.due) {   /* the stack due first (stable sort), as views.picker */
      var want = m.due === "task";
      found.sort(function (a, b) {
        return (isTask(d.tiles[a.index][1]) !== want) - (isTask(d.tiles[b.index][1]) !== want);
      });
    }
    return found;
  }

  function sectionOf(d, code) {
    var c = canonical(code);
    for (var i = 0; i < d.tiles.length; i++) {
      if (canonical(d.tiles[i][0]) === c) { return d.tiles[i][1]; }
    }
    return null;
  }

  /* ---- drawing ------------------------------------------------------------------- */
  function pixel(d, q, r) {
    return [d.size * 1.5 * q, d.size * Math.sqrt(3) * (r + q / 2)];
  }
  function svgEl(name, attrs) {
    var el = document.createElementNS(SVGNS, name);
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    return el;
  }
  function tileG(d, q, r, code, classes, task) {
    var p = pixel(d, q, r);
    var g = svgEl("g", { "class": ["tile"].concat(classes).join(" "), "data-q": q, "data-r": r,
                         "data-hex": key(q, r), "data-code": code,
                         transform: "translate(" + p[0].toFixed(1) + " " + p[1].toFixed(1) + ")" });
    for (var e = 0; e < 6; e++) {
      g.appendChild(svgEl("use", { href: "#pw" + e, "class": "w t-" + code[e] }));
    }
    g.appendChild(svgEl("use", { href: "#phex", "class": "outline" }));
    if (task) {   /* as templates/_hexmap.html draws a task marker */
      var badge = svgEl("g", { "class": "badge active" });
      badge.appendChild(svgEl("circle", { r: 12 }));
      var text = svgEl("text", { y: 5 });
      text.textContent = task.value || "\u00b7";
      badge.appendChild(text);
      g.appendChild(badge);
    }
    return g;
  }
  function icon(code) {
    var uses = "";
    for (var e = 0; e < 6; e++) { uses += '<use href="#pw' + e + '" class="w t-' + code[e] + '"/>'; }
    return '<svg class="tile-icon" viewBox="-41 -36 82 72">' + uses + "</svg>";
  }

  /* Every landscape: its tiles; the one shown also its free hexes and the preview. In the
   * Duel the landscape shown follows the turn (its heading and the other's link). */
  function renderMaps(d, m, legalHexes) {
    play().querySelectorAll(".landscape").forEach(function (div) {
      var land = m.lands.filter(function (l) { return l.player === (div.getAttribute("data-player") || ""); })[0];
      var svg = div.querySelector("svg.hexmap");
      if (!land || !svg) { return; }
      var shown = land === m.land;
      if (d.duel) {
        var was = div.classList.contains("active");
        div.classList.toggle("active", shown);
        var h2 = div.querySelector("h2");
        if (h2) {
          var name = esc(land.player), small = " <small>" + esc(fmt(d.text.tiles, { n: land.cells.length })) + "</small>";
          h2.innerHTML = (shown ? name : '<a class="switch-player" href="?player=' + encodeURIComponent(land.player) +
                          '">' + name + "</a>") + small;
        }
        if (was !== shown) { svg.removeAttribute("data-viewbox"); }
      }
      renderMap(d, land, svg, shown, legalHexes);
    });
  }

  function renderMap(d, m, svg, shown, legalHexes) {
    var tiles = svg.querySelector("g.tiles");
    if (!tiles) { tiles = svgEl("g", { "class": "tiles" }); svg.insertBefore(tiles, svg.firstChild); }
    var i = 0;
    Array.prototype.forEach.call(tiles.children, function (g) {
      if (g.classList.contains("pending")) { return; }
      g.classList.toggle("undone", i >= m.kept);
      i += 1;
    });
    Array.prototype.slice.call(tiles.querySelectorAll("g.tile.pending")).forEach(function (g) { g.remove(); });
    var centres = [];
    m.cells.forEach(function (c) {
      centres.push(pixel(d, c.q, c.r));
      if (!c.server) { tiles.appendChild(tileG(d, c.q, c.r, c.code, ["pending"], c.task ? c : null)); }
    });
    var slots = svg.querySelector("g.slots");
    if (!slots) { slots = svgEl("g", { "class": "slots" }); tiles.after(slots); }
    while (slots.firstChild) { slots.removeChild(slots.firstChild); }
    (shown ? frontier(d, m) : []).forEach(function (h) {
      var p = pixel(d, h[0], h[1]);
      centres.push(p);
      var classes = ["slot"];
      if (legalHexes[key(h[0], h[1])]) { classes.push("legal"); }
      if (sel.at && sel.at[0] === h[0] && sel.at[1] === h[1]) { classes.push("selected"); }
      var a = svgEl("a", { "class": classes.join(" "), href: "?at=" + h[0] + "%2C" + h[1],
                           "data-q": h[0], "data-r": h[1],
                           transform: "translate(" + p[0].toFixed(1) + " " + p[1].toFixed(1) + ")" });
      var title = svgEl("title");
      title.textContent = d.text.free_hex + " " + h[0] + " " + h[1];
      a.appendChild(title);
      a.appendChild(svgEl("use", { href: "#phex" }));
      slots.appendChild(a);
    });
    Array.prototype.slice.call(svg.querySelectorAll("g.tile.preview")).forEach(function (g) { g.remove(); });
    if (shown && sel.at && sel.tile && !m.at[key(sel.at[0], sel.at[1])]) {
      var code = rotate(sel.tile, sel.rot || 0);
      var ok = illegal(d, m, sel.at, code) === null;
      svg.appendChild(tileG(d, sel.at[0], sel.at[1], code, ["preview", ok ? "legal" : "illegal"]));
      centres.push(pixel(d, sel.at[0], sel.at[1]));
    }
    var xs = centres.map(function (c) { return c[0]; }), ys = centres.map(function (c) { return c[1]; });
    if (!xs.length) { xs = [0]; ys = [0]; }
    var hw = d.size, hh = d.size * Math.sqrt(3) / 2, margin = d.size * 0.3;
    var x0 = Math.min.apply(null, xs) - hw - margin, x1 = Math.max.apply(null, xs) + hw + margin;
    var y0 = Math.min.apply(null, ys) - hh - margin, y1 = Math.max.apply(null, ys) + hh + margin;
    var box = [x0, y0, x1 - x0, y1 - y0].map(function (v) { return v.toFixed(1); }).join(" ");
    if (svg.getAttribute("data-viewbox") !== box) {
      svg.setAttribute("data-viewbox", box);
      if (window.companionMap) { window.companionMap.refit(svg); } else { svg.setAttribute("viewBox", box); }
    }
  }

  function remove(root, selector) {
    Array.prototype.slice.call(root.querySelectorAll(selector)).forEach(function (el) { el.remove(); });
  }
  function fromHtml(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    return t.content.firstElementChild;
  }

  function placeForm(d, m, code, placed) {
    var form = fromHtml(d.place_form);
    var values = { q: sel.at[0], r: sel.at[1], code: placed, tile: code, rot: sel.rot || 0, player: m.player };
    Object.keys(values).forEach(function (name) {
      var input = form.querySelector('input[type="hidden"][name="' + name + '"]');
      if (input) { input.value = String(values[name]); }
    });
    form.querySelectorAll("option[data-letter]").forEach(function (o) {
      var off = placed.indexOf(o.getAttribute("data-letter")) < 0;
      o.hidden = off;
      o.disabled = off;
    });
    var section = sectionOf(d, code);
    var required = isTask(section);
    var task = form.querySelector("fieldset.task");
    if (task && !d.duel && section !== null && !required) {   /* as is_task_tile (views.py) */
      task.remove();
    } else if (task) {
      if (!required) { task.setAttribute("data-optional", ""); }
      var shown = [];
      task.querySelectorAll("label[data-letter]").forEach(function (label) {
        var input = label.querySelector("input");
        var off = label.getAttribute("data-letter").split("").some(function (l) { return placed.indexOf(l) < 0; });
        label.hidden = off;
        input.disabled = off;
        input.required = required && !off;
        if (!off) { shown.push(input); }
      });
      if (required && shown.length === 1) { shown[0].checked = true; }
      var offered = m.offered && m.offered.code === code && m.offered.taskText;
      if (offered) {   /* the other player's task: its type and marker chosen */
        var parts = offered.split("/");
        var radio = parts[0].indexOf("double") === 0 ? null
          : task.querySelector('input[name="task_type"][value="' + parts[0] + '"]');
        if (radio && !radio.disabled) { radio.checked = true; }
        var button = parts[1] && task.querySelector('button.marker-value[data-value="' + parts[1] + '"]');
        if (button) { button.classList.add("current"); }
      }
    }
    form.querySelector("button.place").textContent = required ? d.text.place_no_marker
      : fmt(d.text.place, { code: placed, q: sel.at[0], r: sel.at[1] });
    return form;
  }

  function renderTools(d, m, legalHere, legalAnywhere) {
    var p = play(), tools = p.querySelector(".tools");
    p.classList.toggle("has-at", !!sel.at);
    var heading = p.querySelector(".play-head h1");
    if (heading && d.mode === "live") {
      heading.textContent = d.duel ? fmt(d.text.duel_turn, { n: m.turn.number, player: m.turn.player })
        : fmt(d.text.turn, { n: lastTurn(m.land) + 1 });
    }
    if (!tools) { return; }
    var T = d.text;
    remove(tools, "#play-error, .offered, .chosen-flags, .rotations, p.hint.warn, .place-form, .picker, .local-note");
    var chosen = tools.querySelector(".chosen");
    if (chosen) {
      chosen.innerHTML = (sel.at ? '<span class="at">' + esc(fmt(T.hex, { q: sel.at[0], r: sel.at[1] })) + "</span>"
                                 : '<span class="at hint">' + esc(T.tap_hex) + "</span>") +
        (sel.tile ? icon(sel.tile) + '<span class="code">' + esc(sel.tile) + '</span><a class="clear" href="?">' +
                    esc(T.other_tile) + "</a>" : "");
    }
    var history = tools.querySelector(".history-buttons");
    function before(el) { tools.insertBefore(el, history || null); }
    function after(el) { if (history) { history.after(el); } else { tools.appendChild(el); } }
    if (m.offered && sel.tile === m.offered.code) {
      tools.insertBefore(fromHtml('<p class="offered">' + esc(T.offered) + "</p>"), tools.firstChild);
    }
    if (note) { tools.insertBefore(fromHtml('<p class="hint warn local-note" role="status">' + esc(note) + "</p>"), tools.firstChild); }
    if (sel.tile) {
      var rot = sel.rot || 0, current = rotate(sel.tile, rot), seen = {};
      var legal = sel.at ? legalHere : legalAnywhere;
      var html = '<div class="rotations" role="group" aria-label="' + esc(T.rotation) + '">';
      for (var k = 0; k < 6; k++) {
        var code = rotate(sel.tile, k);
        if (seen[code]) { continue; }
        seen[code] = true;
        var ok = legal.indexOf(k) >= 0;
        html += '<a class="rot' + (ok ? " legal" : "") + (code === current ? " current" : "") + '" data-rot="' + k +
          '" href="?rot=' + k + '" title="' + code + (ok ? " (" + esc(T.fits) + ")" : "") + '">' + icon(code) + "</a>";
      }
      html += '<a class="rot-step" href="?rot=' + ((rot + 1) % 6) + '" aria-label="' + esc(T.rotate_right) + '">&#x21BB;</a></div>';
      before(fromHtml(html));
      var fitsHere = sel.at && legalHere.some(function (j) { return rotate(sel.tile, j) === current; });
      if (sel.at && !fitsHere) {
        before(fromHtml('<p class="hint warn">' + esc(T.no_fit_here) + "</p>"));
      } else if (!sel.at && !legalAnywhere.length) {
        before(fromHtml('<p class="hint warn">' + esc(T.fits_nowhere) + "</p>"));
      }
      if (sel.at) { before(placeForm(d, m, sel.tile, current)); }
    }
    if (sel.at && !sel.tile) {
      var found = picks(d, m, sel.at);
      var items = found.map(function (f) {
        var left = f.index === undefined ? 0 : m.left[f.index];
        return '<li data-code="' + f.code + '" data-rot="' + f.rotation + '"' + (f.matches === f.neighbours ? ' class="perfect"' : "") +
          '><a href="?tile=' + f.code + "&amp;rot=" + f.rotation + '">' + icon(f.placed) + '<span class="code">' + f.code + "</span>" +
          (f.index !== undefined && isTask(d.tiles[f.index][1]) ? '<span class="badge-task">' + esc(T.task) + "</span>" : "") +
          (left > 1 ? '<span class="count">&times;' + left + "</span>" : "") + "</a></li>";
      });
      if (!items.length) { items.push('<li class="hint">' + esc(d.duel ? T.no_recent : T.none_fits) + "</li>"); }
      var due = m.due === "task" ? '<p class="hint">' + esc(T.task_due) + "</p>" : "";
      after(fromHtml('<section class="picker" aria-label="' + esc(T.picker) + '"><h2>' + esc(T.picker) +
        " <small>" + found.length + "</small></h2>" + due + '<ul class="catalogue picks">' + items.join("") +
        "</ul></section>"));
    }
    var chooser = tools.querySelector(".chooser");
    if (!sel.tile && !chooser && d.chooser) {
      chooser = fromHtml(d.chooser);
      tools.appendChild(chooser);
    }
    if (chooser) {
      chooser.hidden = !!sel.tile;
      if (!sel.at && !sel.tile) { chooser.open = true; }
      var available = {};
      d.tiles.forEach(function (t, i) { if (m.left[i] > 0) { available[t[0]] = true; } });
      chooser.querySelectorAll(".catalogue li[data-code]").forEach(function (li) {
        li.classList.toggle("used", !available[li.getAttribute("data-code")]);
      });
    }
    var undo = tools.querySelector("button.undo"), redo = tools.querySelector("button.redo");
    if (undo) { undo.disabled = !lastLand(m.lands); }
    if (redo) {   /* the undos waiting at the end of the queue are taken back here; the
                   * server's redo stack (nothing waiting) says it needs the connection */
      var items = queued(), undone = 0, kept = Number(redo.getAttribute("data-redo") || 0);
      for (var i = items.length - 1; i >= 0 && kindOf(items[i]) === "undo"; i--) { undone += 1; }
      var n = undone || (m.waiting ? 0 : kept);
      redo.disabled = !n;
      redo.textContent = T.redo + (n ? " (" + n + ")" : "");
    }
  }

  function ensureSel(d) {
    if (selFor === play() && sel) { return; }
    selFor = play();
    sel = { at: d.sel.at ? d.sel.at.slice() : null, tile: d.sel.tile || null,
            rot: d.sel.rot === null || d.sel.rot === undefined ? null : Number(d.sel.rot),
            player: d.player || null, fromOffer: null };
  }

  function render() {
    var d = data();
    if (!d || !d.local) { return; }
    ensureSel(d);
    var m = model(d);
    /* the other player's tile of this turn is chosen (views.recorder_context), and let go of
     * when the turn it was offered for is gone (an undo) */
    var offer = m.offered && d.mode === "live" ? m.offered.code : null;
    if (sel.fromOffer === null) { sel.fromOffer = !!offer && sel.tile === offer; }
    if (sel.fromOffer && sel.tile !== offer) { sel.tile = null; sel.rot = null; sel.fromOffer = false; }
    if (sel.tile === null && offer) { sel.tile = offer; sel.rot = null; sel.fromOffer = true; }
    var legalHere = [], legalAnywhere = [], legalHexes = {};
    if (sel.tile) {
      frontier(d, m).forEach(function (h) {
        var f = fit(d, m, h, sel.tile);
        if (!f) { return; }
        legalHexes[key(h[0], h[1])] = true;
        f.legal.forEach(function (k) { if (legalAnywhere.indexOf(k) < 0) { legalAnywhere.push(k); } });
      });
      if (sel.at) {
        var here = fit(d, m, sel.at, sel.tile);
        legalHere = here ? here.legal : [];
        if (sel.rot === null) { sel.rot = here ? here.rotation : 0; }
      }
    }
    renderMaps(d, m, legalHexes);
    renderTools(d, m, legalHere, legalAnywhere);
    document.querySelectorAll(".queued-note").forEach(function (n) { n.hidden = !m.waiting; });
  }

  /* ---- taps ------------------------------------------------------------------------ */
  /* As after the server's answer (play.js): the map at the top of the screen. */
  function toMap() {
    var p = play();
    if (!p) { return; }
    window.scrollTo(0, Math.max(0, p.getBoundingClientRect().top + window.pageYOffset - 4));
  }

  function act(el) {
    var d = data();
    if (!d || !d.local) { return false; }
    ensureSel(d);
    var li = el.closest("li[data-code]");
    if (el.matches("a.slot")) {
      sel.at = [Number(el.getAttribute("data-q")), Number(el.getAttribute("data-r"))];
      sel.rot = null;
    } else if (li && el.closest(".picks")) {
      sel.fromOffer = false;
      sel.tile = li.getAttribute("data-code");
      var rot = li.getAttribute("data-rot");
      if (rot === null) {
        try { rot = new URL(el.getAttribute("href"), location.href).searchParams.get("rot"); } catch (err) { rot = null; }
      }
      sel.rot = rot === null || rot === "" ? null : Number(rot);
    } else if (li && el.closest(".catalogue")) {
      sel.fromOffer = false;
      sel.tile = li.getAttribute("data-code");
      sel.rot = null;
    } else if (el.classList.contains("rot")) {
      sel.rot = Number(el.getAttribute("data-rot"));
    } else if (el.classList.contains("rot-step")) {
      sel.rot = ((sel.rot || 0) + 1) % 6;
    } else if (el.classList.contains("clear")) {
      sel.tile = null;
      sel.rot = null;
    } else if (el.classList.contains("switch-player")) {
      sel = { at: null, tile: null, rot: null, player: el.textContent.trim(), fromOffer: false };
    } else {
      return false;
    }
    note = "";
    render();
    toMap();
    return true;
  }

  var TAPS = ".catalogue li[data-code] a, .rotations a.rot, .rotations a.rot-step, .chosen a.clear, " +
    ".landscape h2 a.switch-player";

  /* tap: called by play.js for a tap on the map's links (after its drag check).
   * picker(q, r): the codes the picker offers at that hex on the phone's map, best first
   * (what a tap there shows offline; the browser tests hold it against the engine). */
  window.companionLocal = {
    tap: function (link) {
      lastTap = link;
      if (!local() || !act(link)) { return false; }
      lastTap = null;
      return true;
    },
    nextKind: function (cells) {
      var d = data();
      return d ? nextKind(d, cells.map(serverCell)) : null;
    },
    due: function () {
      var d = data();
      if (!d) { return null; }
      ensureSel(d);
      return model(d).due;
    },
    picker: function (q, r) {
      var d = data();
      if (!d) { return null; }
      ensureSel(d);
      return picks(d, model(d), [q, r]).map(function (f) { return f.code + ":" + f.rotation; });
    }
  };

  window.addEventListener("click", function (e) {
    var p = play();
    if (!p || !(e.target instanceof Element) || !p.contains(e.target)) { return; }
    lastTap = null;                        /* a map link sets it again through companionLocal */
    var el = e.target.closest("a[href]");
    if (!el || el.closest("svg") || !el.matches(TAPS)) { return; }   /* only these are done here */
    if (!local()) { lastTap = el; return; }
    e.preventDefault();
    e.stopPropagation();
    act(el);
  }, true);

  function painted(form) {
    var code = "";
    for (var i = 0; i < 6; i++) {
      var on = form.querySelector('input[name="e' + i + '"]:checked');
      code += on ? on.value : "";
    }
    return validCode(code) ? code : null;
  }

  window.addEventListener("submit", function (e) {
    var form = e.target, p = play();
    if (!(form instanceof HTMLFormElement) || !p || !p.contains(form) || !local()) { return; }
    var kind = form.getAttribute("data-queue");
    var d = data();
    if (kind === "undo") {
      e.preventDefault();
      e.stopPropagation();
      var items = queued(), last = items[items.length - 1];
      if (last && kindOf(last) === "place") {
        Q().drop(last.id);
        render();
        toMap();
      } else if (lastLand(model(d).lands)) {
        Q().submit(form).then(function (result) { if (result.status !== "queued") { refresh(); } });
      }
    } else if (kind === "redo") {   /* a redo of an undo not sent yet takes that undo back */
      e.preventDefault();
      e.stopPropagation();
      var undos = queued(), undo = undos[undos.length - 1];
      if (undo && kindOf(undo) === "undo" && Q().drop(undo.id)) {
        note = "";
        render();
        toMap();
      } else {
        note = d.text.needs_connection;
        render();
      }
    } else if (form.classList.contains("paint")) {
      e.preventDefault();
      e.stopPropagation();
      ensureSel(d);
      var code = painted(form);
      if (code) { sel.tile = code; sel.rot = null; sel.fromOffer = false; }
      render();
    } else if (form.classList.contains("filter")) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  /* ---- the queue's answers ----------------------------------------------------------- */
  function loadRefused() {
    try { return JSON.parse(localStorage.getItem(REFUSED) || "[]"); } catch (err) { return []; }
  }
  function saveRefused(list) {
    try { localStorage.setItem(REFUSED, JSON.stringify(list)); } catch (err) { /* storage full */ }
  }

  function showRefused() {
    var p = play(), d = data();
    if (!p || !d) { return; }
    var head = p.querySelector(".play-head") || p;
    remove(head, ".refused");
    var mine = loadRefused().filter(function (r) { return r.scope === scope(); });
    if (!mine.length) { return; }
    var html = '<div class="refused" role="alert"><ul>' + mine.map(function (r) {
      return "<li>" + esc(r.text) + "</li>";
    }).join("") + '</ul><button type="button" class="dismiss">' + esc(d.text.dismiss) + "</button></div>";
    head.appendChild(fromHtml(html));
  }

  function refuse(item, response) {
    var s = Q().scopeOf(item.action);
    if (s.indexOf("/play/") !== 0) { return Promise.resolve(); }
    return response.clone().text().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var err = doc.querySelector("#play-error") || doc.querySelector(".error");
      var reason = err ? err.textContent.replace(/\s+/g, " ").trim() : String(response.status);
      var d = data();
      var T = d ? d.text : {};
      var text = kindOf(item) === "place" && T.refused_place
        ? fmt(T.refused_place, { code: field(item, "code"), q: field(item, "q"), r: field(item, "r"), reason: reason })
        : (T.refused_other ? fmt(T.refused_other, { reason: reason }) : reason);
      var list = loadRefused();
      list.push({ scope: s, id: item.id, text: text, at: new Date().toISOString() });
      saveRefused(list);
      showRefused();
    });
  }

  function refresh() {
    var d = data();
    if (!d || !window.htmx) { return Promise.resolve(); }
    var page = d.page;
    return Promise.resolve(window.htmx.ajax("GET", page, { target: "#play", swap: "outerHTML" })).then(function () {
      if (location.pathname !== page || location.search) { history.replaceState({}, "", page); }
    });
  }

  function swapIn(response) {
    return response.text().then(function (html) {
      var p = play();
      if (!p || html.indexOf('id="play"') < 0) { return; }
      if (window.htmx) { window.htmx.swap(p, html, { swapStyle: "outerHTML" }); }
      else { p.outerHTML = html; }
    });
  }

  function answered(e) {
    var detail = e.detail || {}, item = detail.item, response = detail.response;
    if (!item || !response) { return; }
    if (e.type === "companion:sent") { lost = false; }
    if (!detail.queued) {
      var url = response.headers.get("HX-Push-Url");
      if (url && e.type === "companion:sent") { history.replaceState({}, "", url); }
      return;   /* a direct answer: offline.js swaps it itself */
    }
    var here = play() && Q().scopeOf(item.action) === scope();
    swaps = swaps.then(function () {
      if (e.type !== "companion:sent") { return refuse(item, response); }
      if (here) { return swapIn(response); }
    }).then(function () {
      if (here && !queued().length) { return refresh(); }
    }).catch(function () { /* a swap failed: the next answer or a reload shows the map */ });
  }
  ["companion:sent", "companion:conflict", "companion:rejected"].forEach(function (name) {
    document.addEventListener(name, answered);
  });

  document.addEventListener("companion:queued", function (e) {
    document.querySelectorAll(".queued-note").forEach(function (n) { n.hidden = false; });
    var item = e.detail && e.detail.item;
    var d = data();
    if (!item || !d || !d.local || Q().scopeOf(item.action) !== scope()) { return; }
    ensureSel(d);
    if (kindOf(item) === "place") {   /* as the server's page after a placement: no filter */
      sel = { at: null, tile: null, rot: null, player: null, fromOffer: false };
      play().querySelectorAll("input[data-filter]").forEach(function (input) { input.value = ""; });
      play().querySelectorAll(".chooser .catalogue li[data-code]").forEach(function (li) { li.hidden = false; });
    }
    render();
    toMap();
  });

  /* A request of this page that could not be sent: do the tap here, or say it needs the
   * connection. */
  document.addEventListener("companion:offline", function () {
    if (navigator.onLine !== false) { lost = true; }
    var tap = lastTap;
    lastTap = null;
    var d = data();
    if (tap && d && d.local && document.contains(tap) && act(tap)) { return; }
    var p = play();
    if (!p || !d) { return; }
    note = d.text.needs_connection;
    if (d.local) { render(); return; }
    var head = p.querySelector(".play-head") || p;
    remove(head, ".local-note");
    head.appendChild(fromHtml('<p class="hint warn local-note" role="status">' + esc(note) + "</p>"));
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 500 && !xhr.getResponseHeader("X-Companion-Offline")) {
      lost = false;
      lastTap = null;
    }
  });
  window.addEventListener("online", function () { lost = false; note = ""; });

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".refused button.dismiss");
    if (!button) { return; }
    var s = scope();
    saveRefused(loadRefused().filter(function (r) { return r.scope !== s; }));
    showRefused();
  });

  /* The newest recorder the server sent (a page or a fragment after a placement), kept on
   * the phone: a reload offline gets the service worker's copy of the last page *loaded*,
   * older than the fragments swapped in since; the newer one kept here replaces it. */
  var LATEST = "companion.play.latest.v1";
  function remember() {
    var p = play(), d = data();
    if (!p || !d || !d.local || local()) { return; }   /* the server's own map only */
    try {
      localStorage.setItem(LATEST, JSON.stringify({
        page: d.page, version: Number(p.getAttribute("data-version")), html: p.outerHTML }));
    } catch (err) { /* storage full: the cached page is shown */ }
  }
  function restore() {
    var p = play(), d = data(), saved = null;
    if (!p || !d || !d.local || !offline() || !window.htmx) { return false; }
    try { saved = JSON.parse(localStorage.getItem(LATEST) || "null"); } catch (err) { saved = null; }
    if (!saved || saved.page !== d.page || !(saved.version > Number(p.getAttribute("data-version")))) {
      return false;
    }
    window.htmx.swap(p, saved.html, { swapStyle: "outerHTML" });
    return true;
  }

  function init() {
    var p = play();
    if (!p) { return; }
    if (restore()) { return; }         /* its htmx:load comes back here */
    remember();
    showRefused();
    if (local() && queued().length) { render(); }
  }
  document.addEventListener("htmx:load", function (e) {
    if (e.target && e.target.id === "play") { init(); }
  });
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
