// Measurements taken inside the page (plain browser JavaScript, injected by browser.ts). Each
// returns JSON-serialisable data; browser.ts gives it types.
/* eslint-disable */
(() => {
  const article = () => {
    const root = document.querySelector("article");
    if (root === null) throw new Error("no article");
    return root;
  };

  // Inside a closed <details> but not its <summary>: not shown (Chromium still lays it out).
  const hidden = (e) => {
    for (let d = e.parentElement?.closest("details"); d; d = d.parentElement?.closest("details")) {
      const summary = d.querySelector(":scope > summary");
      if (!d.open && !(summary !== null && summary.contains(e))) return true;
    }
    return false;
  };

  const bottom = (e) => (e ? e.getBoundingClientRect().bottom + window.scrollY : null);

  window.__probes = {
    setDetailsOpen(open) {
      for (const d of Array.from(document.querySelectorAll("details"))) d.open = open;
    },

    /** Elements wider than the content box, or scrolling sideways inside it. */
    overflows(width) {
      const root = article();
      const left = root.getBoundingClientRect().left;
      const out = [];
      for (const el of Array.from(root.querySelectorAll("*"))) {
        if (hidden(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const scrolls = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible";
        if (r.right - left > width + 0.5 || scrolls) {
          out.push({
            tag: el.tagName.toLowerCase(),
            text: (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 80),
            right: Math.round(r.right - left),
            scrollWidth: el.scrollWidth,
            clientWidth: el.clientWidth,
          });
        }
      }
      const doc = document.scrollingElement;
      if (doc !== null && doc.scrollWidth > width) {
        out.push({
          tag: "document",
          text: "",
          right: doc.scrollWidth,
          scrollWidth: doc.scrollWidth,
          clientWidth: width,
        });
      }
      return out;
    },

    /**
     * Rendered lines of what shows without expanding anything: distinct line boxes of visible
     * text (a table row is one line unless it wraps; each line of the text bar counts), and
     * the bottom of the last one.
     */
    renderedLines() {
      const root = article();
      const tops = new Set();
      let last = 0;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
        if ((n.textContent ?? "").trim() === "") continue;
        if (
          n.parentElement === null ||
          hidden(n.parentElement) ||
          (n.parentElement.tagName === "DETAILS" && !n.parentElement.open)
        )
          continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of Array.from(range.getClientRects())) {
          if (r.width > 0 && r.height > 0) {
            tops.add(Math.round((r.top + r.bottom) / 2 / 4));
            last = Math.max(last, r.bottom + window.scrollY);
          }
        }
      }
      return { lines: tops.size, height: Math.round(last) };
    },

    /** Where the verdict, the failing checks and "what would change" end, in px from the top. */
    foldFacts() {
      const h2 = document.querySelector("h2");
      const failing = Array.from(document.querySelectorAll("tr")).filter((r) =>
        r.textContent?.includes("❌"),
      );
      const lead = Array.from(document.querySelectorAll("p")).find(
        (p) => p.textContent === "What would change the verdict",
      );
      const list = lead?.nextElementSibling;
      // The first item, not the whole list: every fix is shown whole, so a report with many
      // failing checks has a list longer than a screen; where the fixes start must be on it.
      const first = list?.tagName === "UL" ? list.querySelector("li") : null;
      return {
        verdict: bottom(h2) ?? 1e9,
        failing: failing.length === 0 ? null : Math.max(...failing.map((r) => bottom(r) ?? 1e9)),
        change: bottom(first ?? lead),
      };
    },

    /** Tags, attributes, links and GitHub-linkable text in the page. */
    liveContent() {
      const root = article();
      const tags = {};
      const attributes = [];
      const hrefs = [];
      for (const el of Array.from(root.querySelectorAll("*"))) {
        const tag = el.tagName.toLowerCase();
        tags[tag] = (tags[tag] ?? 0) + 1;
        for (const a of Array.from(el.attributes)) {
          const allowed =
            (tag === "a" && a.name === "href") ||
            ((tag === "td" || tag === "th") && a.name === "align") ||
            (tag === "details" && a.name === "open") ||
            // micromark's class for the text bar's fence (```text)
            (tag === "code" &&
              a.name === "class" &&
              a.value === "language-text" &&
              el.parentElement?.tagName === "PRE");
          if (!allowed) attributes.push(`${tag}[${a.name}=${a.value.slice(0, 40)}]`);
        }
        if (tag === "a") hrefs.push(el.getAttribute("href") ?? "");
      }
      // GitHub's own patterns: @user / @org/team, #123, owner/repo#123, GH-123, and bare URLs.
      const patterns = [
        /(?:^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*/,
        /(?:^|[^\w&])#\d+/,
        /[\w.-]+\/[\w.-]+#\d+/,
        /\bGH-\d+/i,
        /\b(?:https?|ftp|javascript|data):\/\//i,
        /\bwww\./i,
      ];
      const linkable = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
        if ((n.parentElement?.closest("a,pre") ?? null) !== null) continue;
        const text = n.textContent ?? "";
        for (const p of patterns) {
          const m = p.exec(text);
          if (m !== null) linkable.push(`${m[0]} in "${text.slice(0, 80)}"`);
        }
      }
      return { tags, attributes, hrefs, linkable, text: root.textContent ?? "" };
    },
  };
})();
