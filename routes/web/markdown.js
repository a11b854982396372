// convfiles web page: Markdown shown as a document. The renderer builds
// elements and text nodes itself (never innerHTML), so a file can only
// ever become headings, paragraphs, lists, quotes, code, tables, emphasis
// and links: raw HTML in it is shown as text, and a link works only when
// it is http(s), mailto, or a path to another file of the conversation.
"use strict";

// safeHref returns a link target the page may follow, or "": http(s)
// and mailto as written, and a relative path through resolve (which
// places it among the conversation's files).
function safeHref(url, resolve) {
  const u = url.trim();
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (/^[\w\-./%#]+$/.test(u) && resolve) return resolve(u);
  return "";
}

// Inline forms, tried only where their first character stands, each
// with a bounded span: a hostile file of unclosed "*" or "[" costs a
// bounded amount of work per character, never a scan to the end.
const INLINE = [
  [/`([^`\n]{1,1000})`/y, (m) => el("code", {}, m[1])],
  [/(\*\*|__)(?=\S)([\s\S]{0,1000}?\S)\1/y, (m, resolve) => nest(el("strong"), m[2], resolve)],
  [/(\*|_)(?=\S)([\s\S]{0,1000}?\S)\1/y, (m, resolve) => nest(el("em"), m[2], resolve)],
  [/!?\[([^\]\n]{0,500})\]\(([^)\s]{0,2000})(?:\s+"[^"\n]{0,500}")?\)/y, link],
];
// INLINE_BUDGET bounds the failed tries in one run of text: past it, the
// rest is plain text.
const INLINE_BUDGET = 20000;

function nest(parent, text, resolve) {
  inline(parent, text, resolve);
  return parent;
}

// link is a link when its target is safe, else its text alone.
function link(m, resolve) {
  const href = safeHref(m[2], resolve);
  if (!href) return nest(document.createDocumentFragment(), m[1], resolve);
  return nest(el("a", { href, rel: "noopener noreferrer nofollow", target: "_blank" }), m[1] || m[2], resolve);
}

// inline renders a line's emphasis, code and links into parent.
function inline(parent, text, resolve) {
  let start = 0, budget = INLINE_BUDGET;
  for (let i = 0; i < text.length && budget > 0; i++) {
    if (!"`*_[!".includes(text[i])) continue;
    for (const [re, make] of INLINE) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (!m) { budget--; continue; }
      if (i > start) parent.append(text.slice(start, i));
      parent.append(make(m, resolve));
      start = i + m[0].length;
      i = start - 1;
      break;
    }
  }
  if (start < text.length) parent.append(text.slice(start));
}

// headingText drops a heading's closing #s ("## Title ##"), without a
// regular expression that could backtrack over a long line.
function headingText(text) {
  let t = text.trimEnd(), end = t.length;
  while (end > 0 && t[end - 1] === "#") end--;
  return end < t.length && (end === 0 || /\s/.test(t[end - 1])) ? t.slice(0, end).trimEnd() : t;
}

// MAX_QUOTE_DEPTH bounds quotes in quotes: deeper ">" stay text.
const MAX_QUOTE_DEPTH = 8;

// renderMarkdown turns Markdown text into a document element; resolve
// maps a relative link to the address it opens, or "" to drop it.
function renderMarkdown(text, resolve, depth = 0) {
  const root = el("div", { class: "markdown" });
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let para = [];
  const endPara = () => {
    if (!para.length) return;
    const p = el("p");
    inline(p, para.join(" "), resolve);
    root.append(p);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (/^\s*$/.test(line)) { endPara(); continue; }
    if ((m = /^\s*(```|~~~)/.exec(line))) {
      endPara();
      const code = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(m[1]); i++) code.push(lines[i]);
      root.append(el("pre", {}, el("code", {}, code.join("\n"))));
    } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      endPara();
      const h = el("h" + m[1].length);
      inline(h, headingText(m[2]), resolve);
      root.append(h);
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endPara();
      root.append(el("hr"));
    } else if (/^\s*>/.test(line) && depth < MAX_QUOTE_DEPTH) {
      endPara();
      const quoted = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]); i++) quoted.push(lines[i].replace(/^\s*>\s?/, ""));
      i--;
      const q = el("blockquote");
      q.append(...renderMarkdown(quoted.join("\n"), resolve, depth + 1).childNodes);
      root.append(q);
    } else if ((m = /^\s*([-*+]|\d+[.)])\s+/.exec(line))) {
      endPara();
      const ordered = /\d/.test(m[1]);
      const list = el(ordered ? "ol" : "ul");
      for (; i < lines.length && (m = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i])) && /\d/.test(m[1]) === ordered; i++) {
        const li = el("li");
        inline(li, m[2], resolve);
        list.append(li);
      }
      i--;
      root.append(list);
    } else if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      endPara();
      const cells = (l) => l.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const table = el("table");
      const head = el("tr");
      for (const c of cells(line)) { const th = el("th"); inline(th, c, resolve); head.append(th); }
      table.append(head);
      for (i += 2; i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i]); i++) {
        const tr = el("tr");
        for (const c of cells(lines[i])) { const td = el("td"); inline(td, c, resolve); tr.append(td); }
        table.append(tr);
      }
      i--;
      root.append(table);
    } else {
      para.push(line.trim());
    }
  }
  endPara();
  return root;
}
