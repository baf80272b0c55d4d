// The notifications page's "Notify this device" (templates/accounts/notifications.html): asks
// the browser's permission, subscribes to push with the site's VAPID public key, and posts the
// subscription to the site, which keeps it as one of the person's devices (accounts/push_views.py).
// It also says this device's state, and marks "this device" in the list by comparing a SHA-256
// of this browser's endpoint with each listed device's (the page never holds an endpoint).
// Subscribing gives up after data-subscribe-timeout milliseconds (15 s on the page): a browser
// whose push service never answers (Chromium without Google's services or without a network)
// would otherwise say "Asking this browser…" for ever; the button comes back, with words.
(function () {
  "use strict";
  var word = window.parlourWords.say; // static/js/words.js: the reader's language
  var box = document.getElementById("push-this-device");
  if (!box) return;
  var state = document.getElementById("push-state");
  var button = document.getElementById("push-enable");

  function say(words) {
    state.textContent = words;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) ||
      !("Notification" in window) || !window.isSecureContext) {
    say(word("push_unsupported"));
    return;
  }

  function keyBytes(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(b64 + "===".slice((b64.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function sameBytes(buffer, bytes) {
    if (!buffer) return false;
    var view = new Uint8Array(buffer);
    if (view.length !== bytes.length) return false;
    for (var i = 0; i < view.length; i += 1) if (view[i] !== bytes[i]) return false;
    return true;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function digest(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (hash) {
      return Array.from(new Uint8Array(hash), function (b) {
        return b.toString(16).padStart(2, "0");
      }).join("");
    });
  }

  function currentSubscription() {
    return navigator.serviceWorker.getRegistration("/").then(function (registration) {
      return registration ? registration.pushManager.getSubscription() : null;
    });
  }

  // Marks the listed device that is this browser; resolves to whether one is.
  function markThisDevice(subscription) {
    var items = document.querySelectorAll("[data-endpoint-digest]");
    var mine = subscription ? digest(subscription.endpoint) : Promise.resolve("");
    return mine.then(function (hex) {
      var found = false;
      items.forEach(function (item) {
        var same = hex !== "" && item.dataset.endpointDigest === hex;
        item.querySelector(".device-this").hidden = !same;
        found = found || same;
      });
      return found;
    });
  }

  function show() {
    return currentSubscription().then(markThisDevice).then(function (listed) {
      if (Notification.permission === "denied") {
        say(word("push_blocked"));
        button.hidden = true;
      } else if (listed) {
        say(word("push_on"));
        button.hidden = true;
      } else {
        say(word("push_off"));
        button.hidden = false;
      }
    });
  }

  function subscribe() {
    var key = keyBytes(box.dataset.vapidKey);
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        // One made with another key (the site's key changed) cannot be used: made anew.
        if (existing && sameBytes(existing.options.applicationServerKey, key)) return existing;
        var gone = existing ? existing.unsubscribe() : Promise.resolve(true);
        return gone.then(function () {
          return registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: key,
          });
        });
      });
    });
  }

  // Resolves as ``promise`` does, or rejects with a ``NoAnswer`` error after ``ms``.
  function withinTime(promise, ms) {
    return new Promise(function (resolve, reject) {
      var timer = window.setTimeout(function () {
        var error = new Error("no answer");
        error.name = "NoAnswer";
        reject(error);
      }, ms);
      promise.then(function (value) {
        window.clearTimeout(timer);
        resolve(value);
      }, function (error) {
        window.clearTimeout(timer);
        reject(error);
      });
    });
  }

  function waitMs() {
    var ms = parseInt(box.dataset.subscribeTimeout, 10);
    return ms > 0 ? ms : 15000;
  }

  function noAnswerWords(ms) {
    var seconds = Math.max(1, Math.round(ms / 1000));
    return window.parlourWords.counted("push_no_answer", seconds);
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    say(word("push_asking"));
    var ms = waitMs();
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") return show();
      return withinTime(subscribe(), ms).then(function (subscription) {
        return fetch(box.dataset.subscribeUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify(subscription),
        });
      }).then(function (response) {
        if (response.ok) {
          window.location.reload(); // the list, with this device in it
          return null;
        }
        return response.json().catch(function () {
          return {};
        }).then(function (answer) {
          say(answer.error || word("push_not_kept"));
        });
      });
    }).catch(function (error) {
      if (error && error.name === "NoAnswer") {
        say(noAnswerWords(ms));
        return;
      }
      say(word("push_refused", { reason: error && error.message ? error.message : error }));
    }).then(function () {
      button.disabled = false;
    });
  });

  show();
})();
