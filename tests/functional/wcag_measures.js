// What tests/functional/test_wcag_measured_browser.py (and _marks_) measures in a page as laid out: one
// object of measures, evaluated in the page (page.evaluate, which the site's Content Security
// Policy does not govern) and called by name. Each returns what it found wrong, as words.
({
  // A short name for an element: its tag, id and what it says.
  name(el) {
    const words = (el.getAttribute("aria-label") || el.textContent || el.name || "").trim();
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${words.slice(0, 30)}"`;
  },

  // 1.4.10: the page no wider than the viewport; else the widest elements not inside a box
  // that scrolls (or clips) sideways itself.
  overflow() {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const wide = [];
    for (const el of document.querySelectorAll("body *")) {
      const box = el.getBoundingClientRect();
      if (box.right <= width + 1 || !box.width) continue;
      let inside = false;
      for (let up = el.parentElement; up && !inside; up = up.parentElement) {
        inside = ["auto", "scroll", "hidden"].includes(getComputedStyle(up).overflowX);
      }
      if (!inside) wide.push(`${this.name(el)} ends at ${Math.round(box.right)} px`);
    }
    return [`the page is ${document.documentElement.scrollWidth} px wide`, ...wide.slice(0, 5)];
  },

  // 2.5.8: every control shown at least 24 x 24 px, unless it is a link in a sentence, or a
  // 24 px circle centred on it reaches no other control (nor another small one's circle).
  targets() {
    const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, "
      + "[role=button], [tabindex='0']";
    // A control scrolled out of a scrolling box (a long move list's first entries) is clipped
    // there and can be pressed nowhere: it is no target.
    const clipped = (el, box) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflow === "visible") continue;
        const r = up.getBoundingClientRect();
        if (box.bottom <= r.top || box.top >= r.bottom || box.right <= r.left
          || box.left >= r.right) return true;
      }
      return false;
    };
    const shown = (el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden"
        && !el.closest(".visually-hidden") && box.right > 0 && !clipped(el, box);
    };
    const all = [...document.querySelectorAll(selector)].filter(shown);
    const boxes = all.map((el) => el.getBoundingClientRect());
    const small = (box) => box.width < 23.9 || box.height < 23.9;
    const inSentence = (el) => {
      if (getComputedStyle(el).display !== "inline") return false;
      const block = el.parentElement;
      return !!block && block.textContent.trim().length > el.textContent.trim().length;
    };
    const found = [];
    all.forEach((el, i) => {
      const box = boxes[i];
      if (!small(box) || inSentence(el)) return;
      const cx = box.left + box.width / 2;
      const cy = box.top + box.height / 2;
      const crowded = all.find((other, j) => {
        if (j === i || other.contains(el) || el.contains(other)) return false;
        const o = boxes[j];
        const dx = Math.max(o.left - cx, 0, cx - o.right);
        const dy = Math.max(o.top - cy, 0, cy - o.bottom);
        if (Math.hypot(dx, dy) < 12) return true;
        const ox = o.left + o.width / 2;
        const oy = o.top + o.height / 2;
        return small(o) && Math.hypot(cx - ox, cy - oy) < 24;
      });
      if (crowded) {
        const size = `${box.width.toFixed(1)} x ${box.height.toFixed(1)} px`;
        found.push(`${this.name(el)} ${size}, beside ${this.name(crowded)}`);
      }
    });
    return found;
  },

  // 2.4.11: the focused element, read two frames after the Tab (the page's own scrolling
  // done): null when focus is back where the walk began (or on the page itself), else its name
  // and whether any of it is seen (a grid of points over its part in the viewport, each asked
  // what is on top there).
  focused() {
    return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
      const el = document.activeElement;
      if (!el || el === document.body || el === window.__wcagFirst) return done(null);
      window.__wcagFirst = window.__wcagFirst || el;
      const box = el.getBoundingClientRect();
      const top = Math.max(box.top, 0);
      const bottom = Math.min(box.bottom, window.innerHeight);
      const left = Math.max(box.left, 0);
      const right = Math.min(box.right, window.innerWidth);
      let seen = false;
      for (let i = 0; i < 5 && !seen && bottom > top && right > left; i++) {
        for (let j = 0; j < 5 && !seen; j++) {
          const hit = document.elementFromPoint(
            left + (right - left) * (i + 0.5) / 5, top + (bottom - top) * (j + 0.5) / 5);
          seen = !!hit && (el === hit || el.contains(hit) || hit.contains(el));
        }
      }
      const middle = document.elementFromPoint(
        (box.left + box.right) / 2, (box.top + box.bottom) / 2);
      const over = middle ? this.name(middle) : "nothing (outside the viewport)";
      done({ name: `${this.name(el)} at ${Math.round(box.top)}..${Math.round(box.bottom)} px under ${over}`, seen });
    })));
  },

  // Begin a Tab walk from the top of the page, nothing focused.
  focusReset() {
    window.scrollTo(0, 0);
    if (document.activeElement) document.activeElement.blur();
    window.__wcagFirst = null;
  },

  // 2.3.3: every element's motion as computed: a transition or an animation that takes time,
  // or smooth scrolling. An htmx request indicator (the site's one transition, parlour.css)
  // is put in the page as htmx shows it, so the rule that would move it is in effect.
  motion() {
    const probe = document.createElement("div");
    probe.className = "htmx-request";
    probe.innerHTML = '<span class="htmx-indicator">…</span>';
    document.body.appendChild(probe);
    const seconds = (value) => Math.max(...value.split(",").map((part) => parseFloat(part) || 0));
    const moving = [];
    for (const el of [document.documentElement, ...document.querySelectorAll("body, body *")]) {
      const style = getComputedStyle(el);
      const what = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className}`;
      const transition = seconds(style.transitionDuration) + seconds(style.transitionDelay);
      if (transition > 0 && style.transitionProperty !== "none") {
        moving.push(`${what}: transition ${style.transitionDuration}`);
      }
      if (style.animationName !== "none" && seconds(style.animationDuration) > 0) {
        moving.push(`${what}: animation ${style.animationName}`);
      }
      if (style.scrollBehavior === "smooth") moving.push(`${what}: smooth scrolling`);
    }
    probe.remove();
    return moving;
  },

  // 3.2.6: the header's links and buttons, in order, by their words.
  nav() {
    return [...document.querySelectorAll("header nav a, header nav button")]
      .map((el) => el.textContent.trim().replace(/\s+/g, " "));
  },
  // 1.4.1: each coloured mark on the table, with the words that must come with it: what lacks
  // them (tests/functional/test_wcag_marks_browser.py).
  unworded() {
    const bad = [];
    const words = (el) => el.innerText.trim();
    const say = (el, why) => bad.push(`${el.className}: ${why} ("${words(el).slice(0, 40)}")`);
    const signed = /^[-\u2212]/;
    document.querySelectorAll("#table .awaited").forEach((el) => {
      if (!/to move/.test(words(el))) say(el, 'awaited without "to move"');
    });
    document.querySelectorAll("#table .me").forEach((el) => {
      if (!/\(you\)/.test(words(el))) say(el, 'own seat without "(you)"');
    });
    document.querySelectorAll("#table .card.fw:not(.back)").forEach((el) => {
      if (!/\d/.test(words(el))) say(el, "Faraway card without its number");
    });
    document.querySelectorAll("#table .card.gv").forEach((el) => {
      const pos = el.querySelector(".pos");
      if ([...el.classList].some((c) => c.startsWith("pos-")) && !(pos && words(pos))) {
        say(el, "word card without its word class");
      }
    });
    document.querySelectorAll("#table .slot.playable").forEach((el) => {
      const button = el.querySelector("button");
      if (!button || !words(button)) say(el, "playable card without a worded button");
    });
    document.querySelectorAll("#table .negative").forEach((el) => {
      if (!signed.test(words(el))) say(el, "negative standing without its sign");
    });
    document.querySelectorAll(".rc-seat.up .rc-change, .rc-seat.down .rc-change").forEach((el) => {
      const up = el.closest(".rc-seat").classList.contains("up");
      if (!(up ? /^\+/ : signed).test(words(el))) say(el, "rating change without its sign");
    });
    return bad;
  },

  // How many of each mark the page shows: the check above looked at something.
  markCounts() {
    const count = (selector) => document.querySelectorAll(selector).length;
    return {
      awaited: count("#table .awaited"),
      cards: count("#table .card.fw:not(.back), #table .card.gv"),
      playable: count("#table .slot.playable"),
      changes: count(".rc-seat .rc-change"),
    };
  },
})
