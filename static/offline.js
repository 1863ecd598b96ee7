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
 *   companionQueue.flush() -> Promise: send the waiting ones now, oldest first (also done on the
 *     "online" event, at page load and every 20 s while some wait).
 * Events dispatched on document (detail: {item, response?}):
 *   "companion:queued", "companion:sent", "companion:conflict", "companion:rejected".
 *   A queued item answered 409 or 4xx is dropped from the queue and reported by its event.
 * Versions: a response with header "X-Game-Version: N" rewrites the "version" field of every
 *   waiting item with the same action URL to N, so several placements queued offline replay in
 *   order without being stale against each other.
 * Forms marked <form data-queue> are submitted through the queue automatically; a direct answer
 *   is swapped like htmx would (the hx-target / hx-swap of the form or its nearest ancestor,
 *   else the innerHTML of #main); an answer to a queued submission only fires the events.
 * Storage key: "companion.queue.v1" (JSON array of {id, action, method, fields, at}).
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
      return { action: form.getAttribute("hx-post") || form.action, method: (form.method || "post").toUpperCase(), fields: fields };
    }
    return { action: form.action, method: (form.method || "POST").toUpperCase(), fields: form.fields.slice() };
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

  function rebase(action, response) {
    var version = response.headers.get("X-Game-Version");
    if (!version) { return; }
    var items = load();
    items.forEach(function (it) {
      if (it.action !== action) { return; }
      it.fields.forEach(function (f) { if (f[0] === "version") { f[1] = version; } });
    });
    save(items);
  }

  function classify(item, response) {
    if (response.status === 409) { emit("conflict", { item: item, response: response }); return "conflict"; }
    if (response.status >= 400) { emit("rejected", { item: item, response: response }); return "rejected"; }
    rebase(item.action, response);
    emit("sent", { item: item, response: response });
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
        save(load().filter(function (it) { return it.id !== item.id; }));
        classify(item, response);
        return next();
      }, function () { /* still offline: keep everything */ });
    })().then(function () { flushing = null; }, function () { flushing = null; });
    return flushing;
  }

  window.companionQueue = { submit: submit, flush: flush, pending: function () { return load().length; } };

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
