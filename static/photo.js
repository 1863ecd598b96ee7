/* The photo flow, layered on pages that work without it (templates/photos/).
 * - Upload form [data-photo-upload]: refuses a too large file at once, sends the photo
 *   with XMLHttpRequest to show upload progress, then "reading the tiles"; on success it
 *   follows the server's redirect to the review, on a refusal it shows the answered page.
 * - Review: tapping a tile of the engine's map opens that tile's editor (like tapping it
 *   on the photo); after an htmx swap the editor scrolls into view; "Zoom" shows the
 *   photo twice as large in its scrolling frame (a .pan-frame of app.js).
 */
(function () {
  "use strict";

  function swapMain(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("main");
    var main = document.getElementById("main");
    if (fresh && main) {
      main.innerHTML = fresh.innerHTML;
      if (doc.title) { document.title = doc.title; }
      var err = main.querySelector("[role=alert]");
      if (err) { err.scrollIntoView({block: "center"}); }
    }
  }

  function upload(form) {
    var input = form.querySelector("input[type=file]");
    var box = form.querySelector(".photo-progress");
    var bar = box && box.querySelector("progress");
    var status = box && box.querySelector(".photo-status");
    var button = form.querySelector("button[type=submit]");
    var file = input && input.files && input.files[0];
    var limit = parseInt(form.getAttribute("data-max-bytes") || "0", 10);
    if (!file || !box) { return false; }
    box.hidden = false;
    if (limit && file.size > limit) {
      status.textContent = form.getAttribute("data-too-large");
      bar.hidden = true;
      return true;
    }
    bar.hidden = false;
    bar.value = 0;
    status.textContent = form.getAttribute("data-uploading");
    button.disabled = true;
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", function (ev) {
      if (ev.lengthComputable) {
        bar.value = Math.round(100 * ev.loaded / ev.total);
        status.textContent = form.getAttribute("data-uploading") + " " + bar.value + "%";
      }
    });
    xhr.upload.addEventListener("load", function () {
      bar.removeAttribute("value");  /* indeterminate while the server reads the tiles */
      status.textContent = form.getAttribute("data-reading");
    });
    xhr.addEventListener("load", function () {
      if (xhr.status >= 200 && xhr.status < 300 && xhr.responseURL &&
          xhr.responseURL.indexOf("/photos/review") >= 0) {
        window.location.assign(xhr.responseURL);
        return;
      }
      swapMain(xhr.responseText);
    });
    xhr.addEventListener("error", function () {
      button.disabled = false;
      bar.hidden = true;
      status.textContent = form.getAttribute("data-failed");
    });
    xhr.send(new FormData(form));
    return true;
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-photo-upload")) { return; }
    if (!window.FormData || !window.XMLHttpRequest || !window.DOMParser) { return; }
    if (upload(form)) { ev.preventDefault(); }
  });

  document.addEventListener("click", function (ev) {
    var target = ev.target instanceof Element ? ev.target : null;
    var tile = target && target.closest("#review .engine-pane .tile[data-hex]");
    if (!tile) { return; }
    var link = document.querySelector('#review .ov-tile[data-tile="' + tile.getAttribute("data-hex") + '"]');
    if (link) {
      ev.preventDefault();
      window.location.assign(link.getAttribute("href"));
    }
  });

  function enableZoom(root) {
    root.querySelectorAll("[data-zoom-photo]").forEach(function (b) { b.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", function () { enableZoom(document); });
  document.addEventListener("click", function (ev) {
    var b = ev.target instanceof Element ? ev.target.closest("[data-zoom-photo]") : null;
    if (!b) { return; }
    var box = b.closest(".photo-frame").querySelector(".photo-scroll");
    var on = !box.classList.contains("zoomed");
    box.classList.toggle("zoomed", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
    document.dispatchEvent(new Event("fit-frames"));  /* app.js: the frame's map, larger */
  });

  document.addEventListener("htmx:afterSwap", function () {
    enableZoom(document);
    var editor = document.getElementById("editor");
    if (editor) { editor.scrollIntoView({block: "start"}); }
  });
})();
