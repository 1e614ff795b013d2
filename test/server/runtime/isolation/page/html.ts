// HTML text to nodes and back, for the simulated web's own pages, page.setContent and innerHTML:
// tags, attributes (quoted, unquoted, bare), text with character references, void elements, raw
// text (script, style) and escapable raw text (textarea, title). Comments and doctypes are
// dropped. An end tag closes up to the element it names; an unclosed element ends with its parent.
// No other repair of broken markup (no implied tbody, no p closed by a block): pages written for
// the simulated web are well formed.

/** What the parser makes nodes with, so that it needs nothing of the node classes. */
export interface Builder<N> {
  element(name: string, attributes: Array<[string, string]>): N;
  text(data: string): N;
  append(parent: N, child: N): void;
}

export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const RAW_TEXT = new Set(["script", "style"]);
const ESCAPABLE_RAW_TEXT = new Set(["textarea", "title"]);

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "\u00a9",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
};

/** Text with its character references (`&amp;`, `&#39;`, `&#x27;`) decoded. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

const NAME = /[^\s/>]/;

/** Parses `html` into children of `root`. */
export function parseInto<N>(html: string, root: N, build: Builder<N>): void {
  const open: Array<{ name: string; node: N }> = [{ name: "", node: root }];
  const current = () => open[open.length - 1]!.node;
  let i = 0;
  const text = (data: string) => {
    if (data) build.append(current(), build.text(decodeEntities(data)));
  };
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      text(html.slice(i));
      break;
    }
    text(html.slice(i, lt));
    i = lt;
    if (html.startsWith("<!--", i)) {
      const end = html.indexOf("-->", i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html[i + 1] === "!" || html[i + 1] === "?") {
      const end = html.indexOf(">", i);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    if (html[i + 1] === "/") {
      const end = html.indexOf(">", i);
      const name = html
        .slice(i + 2, end < 0 ? html.length : end)
        .trim()
        .toLowerCase();
      i = end < 0 ? html.length : end + 1;
      const at = open.map((entry) => entry.name).lastIndexOf(name);
      if (at > 0) open.length = at;
      continue;
    }
    if (!/[a-z]/i.test(html[i + 1] ?? "")) {
      text("<");
      i += 1;
      continue;
    }
    const tag = readTag(html, i + 1);
    i = tag.end;
    const node = build.element(tag.name, tag.attributes);
    build.append(current(), node);
    if (RAW_TEXT.has(tag.name) || ESCAPABLE_RAW_TEXT.has(tag.name)) {
      const close = html.toLowerCase().indexOf(`</${tag.name}`, i);
      const body = html.slice(i, close < 0 ? html.length : close);
      if (body) build.append(node, build.text(ESCAPABLE_RAW_TEXT.has(tag.name) ? decodeEntities(body) : body));
      const end = close < 0 ? -1 : html.indexOf(">", close);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    if (!tag.selfClosing && !VOID_ELEMENTS.has(tag.name)) open.push({ name: tag.name, node });
  }
}

/** A start tag from just after its `<`: its name, attributes, and where it ends. */
function readTag(html: string, from: number): { name: string; attributes: Array<[string, string]>; selfClosing: boolean; end: number } {
  let i = from;
  while (i < html.length && NAME.test(html[i]!)) i++;
  const name = html.slice(from, i).toLowerCase();
  const attributes: Array<[string, string]> = [];
  let selfClosing = false;
  for (;;) {
    while (i < html.length && /\s/.test(html[i]!)) i++;
    if (i >= html.length) break;
    if (html[i] === ">") {
      i++;
      break;
    }
    if (html[i] === "/") {
      selfClosing = html[i + 1] === ">";
      i++;
      continue;
    }
    const start = i;
    while (i < html.length && !/[\s/>=]/.test(html[i]!)) i++;
    const attribute = html.slice(start, i).toLowerCase();
    while (i < html.length && /\s/.test(html[i]!)) i++;
    let value = "";
    if (html[i] === "=") {
      i++;
      while (i < html.length && /\s/.test(html[i]!)) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        value = html.slice(i + 1, close < 0 ? html.length : close);
        i = close < 0 ? html.length : close + 1;
      } else {
        const begin = i;
        while (i < html.length && !/[\s>]/.test(html[i]!)) i++;
        value = html.slice(begin, i);
      }
    }
    if (attribute && !attributes.some(([seen]) => seen === attribute)) attributes.push([attribute, decodeEntities(value)]);
  }
  return { name, attributes, selfClosing, end: i };
}

/** The shape the serializer reads: an element, or a text node. */
export interface Serializable {
  readonly nodeType: number;
  readonly localName?: string;
  readonly data?: string;
  readonly childNodes: readonly Serializable[];
  attributeList?(): ReadonlyArray<{ name: string; value: string }>;
}

const escapeText = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\u00a0/g, "&nbsp;");
const escapeAttribute = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/\u00a0/g, "&nbsp;");

/** The HTML of `node`'s children (innerHTML). */
export function serializeChildren(node: Serializable): string {
  let out = "";
  for (const child of node.childNodes) out += serializeNode(child, node.localName ?? "");
  return out;
}

/** The HTML of `node` itself (outerHTML). */
export function serializeNode(node: Serializable, parentName = ""): string {
  if (node.nodeType === 3) return RAW_TEXT.has(parentName) ? (node.data ?? "") : escapeText(node.data ?? "");
  if (node.nodeType !== 1) return "";
  const name = node.localName ?? "";
  const attributes = (node.attributeList?.() ?? []).map(({ name: key, value }) => ` ${key}="${escapeAttribute(value)}"`).join("");
  if (VOID_ELEMENTS.has(name)) return `<${name}${attributes}>`;
  return `<${name}${attributes}>${serializeChildren(node)}</${name}>`;
}
