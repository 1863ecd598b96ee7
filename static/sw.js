/* Service worker (served at /sw.js, scope /): the app works on a table with bad reception.
 * - Install: caches the app shell (home, score page, rules, offline page) and the static files.
 * - Static files (/static/...): cache first, refreshed in the background.
 * - Pages (navigations): network first; offline -> the cached copy (marked
 *   <html data-served-offline>), else /offline. Only what
 *   offline play needs is kept: the shell and the recorder pages (/play/...), never the other
 *   private pages (game sheets, campaigns, photos, records, archives).
 * - htmx fragment requests and every POST go to the network; unsent form posts are the job of
 *   offline.js (window.companionQueue), which keeps them on the phone until the connection returns.
 *   A fragment request that cannot be sent answers 503 with "X-Companion-Offline: 1" and an empty
 *   body: never the offline page (swapped into the game it nested a second page, issue 16);
 *   offline.js swaps nothing and the recorder (play-offline.js) does the tap on the phone.
 * Bump VERSION when the shell changes: old caches are deleted on activate.
 */
"use strict";
var VERSION = "companion-v9";
var SHELL = ["/", "/offline", "/score", "/rules"];
var STATIC = [
  "/static/app.css", "/static/app.js", "/static/offline.js", "/static/htmx-2.0.11.min.js",
  "/static/manifest.webmanifest", "/static/icons/icon-32.png", "/static/icons/icon-180.png",
  "/static/icons/icon-192.png", "/static/icons/icon-512.png",
  "/static/play.js", "/static/play-offline.js", "/static/map.css"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(VERSION).then(function (cache) {
    return Promise.all(SHELL.concat(STATIC).map(function (url) {
      return cache.add(new Request(url, { credentials: "same-origin" })).catch(function () {});
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== VERSION; }).map(function (k) {
      return caches.delete(k);
    }));
  }).then(function () { return self.clients.claim(); }));
});

function staticFirst(request) {
  return caches.open(VERSION).then(function (cache) {
    return cache.match(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
      return hit || fresh;
    });
  });
}

function keptOffline(url) {
  return SHELL.indexOf(url.pathname) >= 0 || url.pathname.indexOf("/play/") === 0;
}

function pageNetworkFirst(request) {
  return fetch(request).then(function (response) {
    if (response.ok && keptOffline(new URL(request.url))) {
      var copy = response.clone();
      caches.open(VERSION).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, { ignoreVary: true }).then(function (hit) {
      return hit ? markedKept(hit) : caches.match("/offline", { ignoreVary: true });
    });
  });
}

/* A kept page served for want of the network says so (<html data-served-offline>): the
 * phone may still believe it is online (navigator.onLine is true on a network without a
 * way out, and was so in Chromium 150 after a reload offline), and the recorder then
 * knows the page is older than the map it kept (play-offline.js). */
function markedKept(response) {
  return response.text().then(function (html) {
    return new Response(html.replace(/<html\b/i, "<html data-served-offline"), {
      status: response.status, statusText: response.statusText,
      headers: new Headers(response.headers)
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageNetworkFirst(request));
  } else if (request.headers.get("HX-Request") === "true") {
    event.respondWith(fetch(request).catch(function () {
      return new Response("", {
        status: 503, headers: { "X-Companion-Offline": "1", "Cache-Control": "no-store" }
      });
    }));
  }
});
