/**
 * The pieces every page of `reduck-client/report` is made of: text that is never markup, JSON
 * shown as text within bounds, and the page's shell.
 *
 * A page is one file that is opened from disk and mailed around, so it must never reach out: its
 * Content-Security-Policy forbids every request (`default-src 'none'`), images are `data:` URIs,
 * styles are inline, and there is no script (`<details>` and `:target` do the folding). Whatever
 * the service or the user wrote goes through `text()`: escaped for HTML, with the characters that
 * could hide or reorder what a reader sees (controls, bidi overrides) shown as escapes.
 */
import { count } from "../core/words/count.js";

/** Forbids every request the page could make; only `data:` images and the inline style. */
export const PAGE_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/**
 * What `text()` changes: the HTML specials, and the characters that show nothing or change how the
 * rest reads: C0 and C1 controls (but tab and line feed), the bidi embeddings, overrides and
 * isolates, the directional marks, and lone surrogates (not text at all: a UTF-8 file would carry
 * U+FFFD in their place).
 */
const SPECIAL =
  "[&<>\"']|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]";
const ANY_SPECIAL = new RegExp(SPECIAL);
const EVERY_SPECIAL = new RegExp(SPECIAL, "g");

const escaped = (c: string) => ENTITY[c] ?? `<span class="ctl">\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}</span>`;

/**
 * A string as HTML text (element content or a quoted attribute value): `<img onerror=...>` stays
 * those characters, and hidden characters show as `\u202e`.
 *
 * @example
 * text('<b>"hi"</b>\u202e'); // '&lt;b&gt;&quot;hi&quot;&lt;/b&gt;<span class="ctl">\\u202e</span>'
 */
export function text(value: string): string {
  // Most strings (a step's action, a run id) hold nothing to change: no copy is made of them.
  return ANY_SPECIAL.test(value) ? value.replace(EVERY_SPECIAL, escaped) : value;
}

/**
 * How much of the page's text is left to spend: a page holds at most so many characters of what
 * it was given, whatever it was given, and says where it stopped.
 */
export class Budget {
  constructor(public left: number) {}

  /** Takes up to `wanted` characters; returns how many were granted. */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.left));
    this.left -= granted;
    return granted;
  }

  get spent(): boolean {
    return this.left <= 0;
  }
}

const n = count;

/**
 * At most `max` characters of a string (and of the budget), with a note of what was cut.
 *
 * @example
 * cut("abcdef", 3, new Budget(100)); // "abc… (3 more characters)"
 */
export function cut(value: string, max: number, budget: Budget): string {
  const granted = budget.take(Math.min(value.length, max));
  if (granted >= value.length) return value;
  return `${value.slice(0, granted)}… (${n(value.length - granted)} more characters left out)`;
}

/** How deep, how wide and how long JSON is shown. */
export interface JsonLimits {
  /** Levels shown; deeper ones are summarised. */
  depth: number;
  /** Entries of one array or object. */
  entries: number;
  /** Characters of one string. */
  string: number;
  /** Characters of the whole rendering. */
  total: number;
}

export const JSON_LIMITS: JsonLimits = { depth: 16, entries: 500, string: 20_000, total: 200_000 };

/**
 * Any value as indented JSON text (not yet HTML: pass it to `text()`), within `limits` and the
 * page's budget. Never throws and never recurses deeper than `limits.depth`, so a value 10,000
 * levels deep, a cycle or megabytes of text all come out bounded; what is left out is said in place.
 *
 * @example
 * jsonText({ a: [1, "x"] }, JSON_LIMITS, new Budget(1e6)); // '{\n  "a": [\n    1,\n    "x"\n  ]\n}'
 */
export function jsonText(value: unknown, limits: JsonLimits, budget: Budget): string {
  const parts: string[] = [];
  let length = 0;
  let full = false;
  const room = Math.min(limits.total, budget.left);
  const push = (s: string) => {
    if (full) return;
    if (length + s.length > room) {
      parts.push(s.slice(0, Math.max(0, room - length)), "… (the rest of this value is left out: too long for the page)");
      length = room;
      full = true;
      return;
    }
    parts.push(s);
    length += s.length;
  };
  const scalar = (v: unknown): string => {
    switch (typeof v) {
      case "string": {
        const shown = v.length > limits.string ? v.slice(0, limits.string) : v;
        const more = v.length - shown.length;
        return `${JSON.stringify(shown)}${more > 0 ? ` … (${n(more)} more characters left out)` : ""}`;
      }
      case "number":
        return Number.isFinite(v) ? String(v) : `${v} (not a JSON number)`;
      case "boolean":
        return String(v);
      case "bigint":
        return `${v}n`;
      case "undefined":
        return "undefined";
      case "object":
        return v === null ? "null" : "";
      default:
        return `(${typeof v})`;
    }
  };
  const walk = (v: unknown, indent: string, depth: number) => {
    if (full) return;
    if (typeof v !== "object" || v === null) return push(scalar(v));
    const array = Array.isArray(v);
    const [open, close] = array ? ["[", "]"] : ["{", "}"];
    if (depth >= limits.depth) {
      const size = array ? `${n(v.length)} item${v.length === 1 ? "" : "s"}` : "an object";
      return push(`${open} … ${size}, deeper levels left out ${close}`);
    }
    const inner = `${indent}  `;
    push(open);
    let shown = 0;
    let first = true;
    const entry = (key: string | undefined, item: unknown) => {
      push(`${first ? "" : ","}\n${inner}${key === undefined ? "" : `${JSON.stringify(key)}: `}`);
      first = false;
      walk(item, inner, depth + 1);
    };
    if (array) {
      const count = v.length;
      for (; shown < count && shown < limits.entries && !full; shown++) entry(undefined, v[shown]);
      if (shown < count && !full) push(`${first ? "" : ","}\n${inner}… ${n(count - shown)} more items left out`);
    } else {
      let more = 0;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (shown >= limits.entries || full) {
          more++;
          if (more > 1_000_000) break;
          continue;
        }
        entry(key, (v as Record<string, unknown>)[key]);
        shown++;
      }
      if (more && !full) push(`${first ? "" : ","}\n${inner}… ${n(more)} more entries left out`);
    }
    push(first ? close : `\n${indent}${close}`);
  };
  try {
    walk(value, "", 0);
  } catch (err) {
    // A value that is not JSON (a getter that throws, a revoked proxy): say so, keep what was made.
    push(` … (could not be read further: ${err instanceof Error ? err.message : String(err)})`);
  }
  budget.take(length);
  return parts.join("");
}

/** JSON in a `<pre>`, as HTML. */
export function jsonBlock(value: unknown, budget: Budget, limits: JsonLimits = JSON_LIMITS): string {
  if (budget.spent) return `<p class="muted">Left out: the page reached its size limit.</p>`;
  return `<pre class="json">${text(jsonText(value, limits, budget))}</pre>`;
}

/**
 * 850 ms, 12.3 s, 4 min 10 s, 2 h 05 min.
 *
 * @example
 * duration(250_000); // "4 min 10 s"
 */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

/**
 * A moment as people read it, in UTC (the page has no script to know the reader's zone); the
 * string itself when it is no date.
 *
 * @example
 * when("2026-03-02T14:03:11.512Z"); // "2026-03-02 14:03:11 UTC"
 */
export function when(value: string): string {
  const t = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\d/.test(value) || Number.isNaN(t)) return value;
  return `${new Date(t).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1d1f23;--muted:#5f6670;--bg:#fff;--panel:#f4f5f7;--line:#d9dce1;--ok:#1a7f37;--bad:#c62828;--bad-bg:#fdecea;--warn:#9a6700;--bar:#3b6fd4;--bar-bad:#d33}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#9aa3ad;--bg:#15171a;--panel:#1f2226;--line:#363b42;--ok:#4cc16a;--bad:#ff6b6b;--bad-bg:#3a1d1d;--warn:#e0b341;--bar:#6d9bf0;--bar-bad:#ff6b6b}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:24px 20px 60px}
h1{font-size:20px;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:16px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:14px;margin:16px 0 6px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{margin:6px 0;padding:8px 10px;background:var(--panel);border-radius:6px;overflow:auto;max-height:480px;white-space:pre-wrap;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.ctl{color:var(--bad);background:var(--bad-bg);border-radius:3px;padding:0 2px;font-family:ui-monospace,monospace}
.status{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;background:var(--panel)}
.status.ok{color:var(--ok)}.status.bad{color:var(--bad);background:var(--bad-bg)}.status.warn{color:var(--warn)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:12px 0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
@media (min-width:800px){dl.facts.two{grid-template-columns:max-content minmax(0,1fr) max-content minmax(0,1fr)}}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
th{color:var(--muted);font-weight:600}
.callout{border-left:4px solid var(--bad);background:var(--bad-bg);padding:10px 14px;border-radius:4px;margin:14px 0}
.callout.stopped{border-left-color:var(--warn);background:var(--panel)}
.callout a{color:inherit}
.steps{list-style:none;margin:0;padding:0}
.step{border-bottom:1px solid var(--line);padding:6px 4px;scroll-margin-top:20px}
.step:target{outline:2px solid var(--bar);outline-offset:2px}
.step.failed{background:var(--bad-bg);border-left:4px solid var(--bad);padding-left:8px}
.row{display:grid;grid-template-columns:3.5em minmax(0,1fr) minmax(120px,32%) 6.5em;gap:10px;align-items:center}
.num{color:var(--muted);text-align:right}
.action{overflow-wrap:anywhere}
.track{position:relative;height:10px;background:var(--panel);border-radius:5px;overflow:hidden}
.bar{position:absolute;top:0;bottom:0;min-width:2px;background:var(--bar);border-radius:5px}
.failed .bar{background:var(--bar-bad)}
.dur{text-align:right;font-variant-numeric:tabular-nums}
.more{margin:4px 0 0 calc(3.5em + 10px)}
.err{color:var(--bad);white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0 0 calc(3.5em + 10px)}
details>summary{cursor:pointer;color:var(--muted)}
.shots{display:flex;flex-wrap:wrap;gap:16px}
figure{margin:0}
figcaption{color:var(--muted);font-size:12px;margin-top:4px;max-width:320px;overflow-wrap:anywhere}
details.shot>summary{list-style:none;color:inherit}
details.shot>summary::-webkit-details-marker{display:none}
details.shot img{display:block;max-width:320px;max-height:240px;border:1px solid var(--line);border-radius:4px;cursor:zoom-in}
details.shot[open]>summary{position:fixed;inset:0;z-index:10;background:rgba(0,0,0,.85);display:flex;align-items:center;justify-content:center;padding:20px;cursor:zoom-out}
details.shot[open] img{max-width:100%;max-height:100%;cursor:zoom-out}
.tiles{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0}
.tile{background:var(--panel);border-radius:6px;padding:8px 14px;min-width:110px}
.tile b{display:block;font-size:20px}
.stack{display:flex;height:12px;border-radius:6px;overflow:hidden;background:var(--panel);margin:8px 0}
.stack span{display:block;height:100%}
.c-completed{background:var(--ok)}.c-failed{background:var(--bad)}.c-invalid{background:var(--warn)}.c-unknown{background:#888}.c-inflight{background:var(--bar)}.c-never{background:var(--line)}
.hist{display:grid;grid-template-columns:9em minmax(0,1fr) 6em;gap:4px 10px;align-items:center}
.hist .track{height:14px}
.rowlist{background:var(--panel);border-radius:6px;padding:8px 0;margin:6px 0}
.rows{content-visibility:auto;max-height:none;overflow:visible;margin:0;padding:0 10px;border-radius:0;line-height:1.45;white-space:pre}
`;

/**
 * A whole page: the CSP first, before anything the page holds, then the style and the body.
 *
 * @example
 * page("Run 86b0…", "<main>…</main>");
 */
export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
