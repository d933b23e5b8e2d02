// The service worker that makes the page installable and lets it open without a network.
// It keeps copies of the page's own files only (same origin, by file type): never game
// data, which comes over the websocket and never passes through here. Network first, so a
// new version of the page is picked up at once; the copy serves when the network fails.

const CACHE = "spades2-page-v1";
const PAGE_FILE = /^\/$|\.(html|css|js|json|svg|webmanifest)$/;
const FIRST = ["/", "/app.css", "/app.js", "/manifest.webmanifest", "/icon.svg"];

/** Whether `request` asks for one of the page's own files (what may be kept). */
function isPageFile(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin && PAGE_FILE.test(url.pathname) && !url.search;
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FIRST)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  if (!isPageFile(event.request)) return; // the browser fetches it as if we were not here
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((kept) => kept || Response.error())),
  );
});
