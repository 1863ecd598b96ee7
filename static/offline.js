/* window.companionQueue: nothing entered is lost when the connection drops.
 *
 * API (used by play.js and by any <form data-queue>):
 *   companionQueue.submit(form) -> Promise<{status, response?, item?}>
 *     `form` is an HTMLFormElement (its action, method and text fields are sent, including
 *     csrf_token and version) or a plain object {action, method, fields: [[name, value], ...]}.
 *     Online: sent at once with fetch (same origin, cookies, headers "HX-Request: true" and
 *     "X-CSRF-Token" from <meta name="csrf-token">). Resolves to
 *       {status: "sent", response}      2xx/3xx: the caller may swap `await response.text()`;
 *       {status: "conflict", response}  409: someone edited first; the body is the current state;
 *       {status: "rejected", response}  another 4xx/5xx answer (the server refused it);
 *       {status: "queued", item}        no connection (offline, network error, 502/503/504):
 *                                       kept in localStorage and sent later.
 *     File fields are not queued (records are text).
 *   companionQueue.pending() -> number of submissions waiting.
 *   companionQueue.items() -> a copy of the waiting submissions, oldest first.
 *   companionQueue.drop(id) -> take one waiting submission back (an undo made offline).
 *   companionQueue.scopeOf(action) -> the game an action belongs to: its first two path
 *     segments ("/play/12/place" -> "/play/12").
 *   companionQueue.flush() -> Promise: send the waiting ones now, oldest first (also done on the
 *     "online" event, at page load, after any htmx request the server answered and every 20 s
 *     while some wait).
 * Events dispatched on document (detail: {item, response?, queued?}; queued: the answer to a
 *   submission that waited in the queue, not a direct one):
 *   "companion:queued", "companion:sent", "companion:conflict", "companion:rejected".
 *   A queued item answered 409 or 4xx is dropped from the queue and reported by its event.
 * Versions: a response with header "X-Game-Version: N" rewrites the "version" field of every
 *   waiting item of the same game (scopeOf) to N, so several edits queued offline replay in
 *   order without being stale against each other. A queued placement (kind "place": a form
 *   with data-queue="place") answered 409 because someone else changed the game meanwhile is
 *   rebased on the version that answer names and sent again (up to 3 times): the server
 *   re-checks it against the map as it is now and places it, or refuses it with the reason
 *   (companion:rejected). Other kinds (an undo, a redo) are never replayed onto a newer game.
 * Offline answers: a fragment request the service worker could not send comes back 503 with
 *   "X-Companion-Offline: 1"; it is never swapped into the page (no nested offline page) and,
 *   like an htmx request that failed to send, fires "companion:offline" (detail: {elt}).
 * Forms marked <form data-queue> are submitted through the queue automatically; a direct answer
 *   is swapped like htmx would (the hx-target / hx-swap of the form or its nearest ancestor,
 *   else the innerHTML of #main); an answer to a queued submission only fires the events.
 * Storage key: "companion.queue.v1" (JSON array of {id, action, method, fields, at, kind}).
 */
(function () {
  "use strict";
  var KEY = "companion.queue.v1";
  var flushing = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save(items) {
    try { localStorage.setItem(KEY, JSON.stringify(items)); } catch (e) { /* storage full */ }
    status();
  }
  function emit(name, detail) {
    document.dispatchEvent(new CustomEvent("companion:" + name, { detail: detail }));
  }
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function status() {
    var el = document.getElementById("queue-status");
    if (!el) { return; }
    var n = load().length;
    el.hidden = n === 0;
    el.textContent = n === 0 ? "" : (el.getAttribute("data-text") || "Waiting for the connection: ") + n;
  }

  function path(action) {
    try { return new URL(action, location.href).pathname; } catch (e) { return action; }
  }
  function scopeOf(action) {
    return path(action).split("/").slice(0, 3).join("/");
  }

  function toItem(form, submitter) {
    if (form instanceof HTMLFormElement) {
      var fields = [];
      var data;
      try { data = submitter && submitter.name ? new FormData(form, submitter) : new FormData(form); }
      catch (err) {
        data = new FormData(form);
        if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
      }
      data.forEach(function (value, name) {
        if (typeof value === "string") { fields.push([name, value]); }
      });
      return { action: path(form.getAttribute("hx-post") || form.action), method: (form.method || "post").toUpperCase(),
               fields: fields, kind: form.getAttribute("data-queue") || "" };
    }
    return { action: path(form.action), method: (form.method || "POST").toUpperCase(), fields: form.fields.slice(),
             kind: form.kind || "" };
  }

  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (f) { body.append(f[0], f[1]); });
    return fetch(item.action, {
      method: item.method, body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRF-Token": csrf() }
    }).then(function (response) {
      if (response.status >= 502 && response.status <= 504) { throw new Error("gateway"); }
      return response;
    });
  }

  function setVersion(item, version) {
    item.fields.forEach(function (f) { if (f[0] === "version") { f[1] = version; } });
  }
  function versionOf(item) {
    var found = item.fields.filter(function (f) { return f[0] === "version"; })[0];
    return found ? found[1] : null;
  }

  function rebase(action, response) {
    var version = response.headers.get("X-Game-Version");
    if (!version) { return; }
    var scope = scopeOf(action);
    var items = load();
    items.forEach(function (it) { if (scopeOf(it.action) === scope) { setVersion(it, version); } });
    save(items);
  }

  /* A queued placement someone else's edit made stale: send it again on the newer game. */
  function replayable(item, response) {
    var version = response.headers.get("X-Game-Version");
    return response.status === 409 && item.kind === "place" && version &&
      version !== versionOf(item) && (item.retries || 0) < 3;
  }

  function classify(item, response, queued) {
    var detail = { item: item, response: response, queued: !!queued };
    if (response.status === 409) { emit("conflict", detail); return "conflict"; }
    if (response.status >= 400) { emit("rejected", detail); return "rejected"; }
    rebase(item.action, response);
    emit("sent", detail);
    return "sent";
  }

  function enqueue(item) {
    item.id = Date.now().toString(36) + Math.random().toString(36).slice(2, 7);
    item.at = new Date().toISOString();
    var items = load();
    items.push(item);
    save(items);
    emit("queued", { item: item });
    return { status: "queued", item: item };
  }

  function submit(form, submitter) {
    var item = toItem(form, submitter);
    if (load().length > 0 || navigator.onLine === false) {
      var result = enqueue(item);
      flush();
      return Promise.resolve(result);
    }
    return send(item).then(function (response) {
      return { status: classify(item, response), response: response, item: item };
    }, function () { return enqueue(item); });
  }

  function flush() {
    if (flushing) { return flushing; }
    flushing = (function next() {
      var items = load();
      if (!items.length || navigator.onLine === false) { return Promise.resolve(); }
      var item = items[0];
      return send(item).then(function (response) {
        if (replayable(item, response)) {
          var kept = load();
          kept.forEach(function (it) { if (it.id === item.id) { it.retries = (it.retries || 0) + 1; } });
          save(kept);
          rebase(item.action, response);
          return next();
        }
        save(load().filter(function (it) { return it.id !== item.id; }));
        classify(item, response, true);
        return next();
      }, function () { /* still offline: keep everything */ });
    })().then(function () { flushing = null; }, function () { flushing = null; });
    return flushing;
  }

  function drop(id) {
    var items = load();
    var kept = items.filter(function (it) { return it.id !== id; });
    save(kept);
    return kept.length < items.length;
  }

  window.companionQueue = {
    submit: submit, flush: flush, drop: drop, scopeOf: scopeOf,
    pending: function () { return load().length; },
    items: function () { return load(); }
  };

  /* No nested "You are offline" page: an htmx request that could not be sent (the
   * service worker's 503 "X-Companion-Offline", or no answer at all) swaps nothing. */
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.getResponseHeader && xhr.getResponseHeader("X-Companion-Offline")) {
      e.detail.shouldSwap = false;
      e.detail.isError = false;
      emit("offline", { elt: e.detail.elt });
    }
  });
  document.addEventListener("htmx:sendError", function (e) {
    emit("offline", { elt: e.detail && e.detail.elt });
  });
  /* The server answered: the connection is back even if no "online" event said so. */
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 500 && load().length) { flush(); }
  });

  /* Where the answer goes: the form's (or an ancestor's) hx-target and hx-swap, as htmx
   * would do; else the innerHTML of #main. */
  function swapTarget(form) {
    var holder = form.closest("[hx-target]");
    var spec = holder ? holder.getAttribute("hx-target") : "#main";
    var target = spec === "this" ? holder : document.querySelector(spec);
    var swapper = form.closest("[hx-swap]");
    var style = swapper ? swapper.getAttribute("hx-swap").split(" ")[0] : "innerHTML";
    return { target: target || document.getElementById("main"), style: target ? style : "innerHTML" };
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-queue")) { return; }
    ev.preventDefault();
    ev.stopPropagation();
    submit(form, ev.submitter).then(function (result) {
      if (!result.response) { return; }
      return result.response.text().then(function (html) {
        var place = swapTarget(form);
        if (!place.target) { return; }
        if (window.htmx) { window.htmx.swap(place.target, html, { swapStyle: place.style }); }
        else if (place.style === "outerHTML") { place.target.outerHTML = html; }
        else { place.target.innerHTML = html; }
      });
    });
  }, true);

  window.addEventListener("online", flush);
  setInterval(function () { if (load().length) { flush(); } }, 20000);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { status(); flush(); });
  } else { status(); flush(); }
})();
