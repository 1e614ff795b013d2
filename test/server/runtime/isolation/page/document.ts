// The document: made from a page's HTML (a whole page, or content a script sets), the root of its
// tree, and the factory of its nodes.
import type { EventTarget } from "./events.js";
import { builderFor, descendants, Element } from "./element.js";
import { parseInto } from "./html.js";
import { Node, Text, type NodeOwner } from "./nodes.js";
import { matchesList, parseSelector } from "./selectors.js";

/** Elements that belong in the head when a page's markup has no head of its own. */
const HEAD_ELEMENTS = new Set(["title", "meta", "link", "style", "base"]);

export class Document extends Node implements NodeOwner {
  readonly nodeType = 9;
  readonly nodeName = "#document";
  readonly readyState = "complete";
  focused: Node | null = null;

  constructor(
    public URL: string,
    private readonly window: EventTarget | null,
  ) {
    super(null);
  }

  /** A document holding `html`, given as a whole page or as body content. */
  static parse(html: string, url: string, window: EventTarget | null): Document {
    const document = new Document(url, window);
    parseInto(html, document as Node, builderFor(document));
    document.normalizeRoot();
    return document;
  }

  /** Gives the document an html element with a head and a body, moving stray nodes into them. */
  private normalizeRoot(): void {
    const stray = [...this.childNodes];
    let html = stray.find((node): node is Element => node instanceof Element && node.localName === "html");
    if (!html) html = this.createElement("html");
    for (const node of stray) if (node !== html) node.remove();
    this.appendChild(html);
    let head = html.children.find((e) => e.localName === "head");
    let body = html.children.find((e) => e.localName === "body");
    if (!head) head = html.insertBefore(this.createElement("head"), html.firstChild);
    if (!body) body = html.appendChild(this.createElement("body"));
    for (const node of [...html.childNodes, ...stray.filter((n) => n !== html)]) {
      if (node === head || node === body) continue;
      if (node instanceof Text && !node.data.trim()) continue;
      if (node instanceof Element && HEAD_ELEMENTS.has(node.localName) && body.childNodes.length === 0) head.appendChild(node);
      else body.appendChild(node);
    }
  }

  override eventParent(): EventTarget | null {
    return this.window;
  }

  get documentElement(): Element | null {
    return this.childNodes.find((node): node is Element => node instanceof Element) ?? null;
  }

  get head(): Element | null {
    return this.documentElement?.children.find((e) => e.localName === "head") ?? null;
  }

  get body(): Element | null {
    return this.documentElement?.children.find((e) => e.localName === "body") ?? null;
  }

  get title(): string {
    const title = descendants(this).find((e) => e.localName === "title");
    return (title?.textContent ?? "").replace(/\s+/g, " ").trim();
  }

  set title(value: string) {
    let title = descendants(this).find((e) => e.localName === "title");
    if (!title) title = this.head?.appendChild(this.createElement("title"));
    if (title) title.textContent = String(value);
  }

  get activeElement(): Node | null {
    return this.focused ?? this.body;
  }

  get defaultView(): EventTarget | null {
    return this.window;
  }

  get location(): unknown {
    return (this.window as { location?: unknown } | null)?.location ?? null;
  }

  get documentURI(): string {
    return this.URL;
  }

  override get textContent(): null {
    return null;
  }

  override set textContent(_value: string | null) {}

  createElement(name: string): Element {
    const tag = String(name);
    if (!/^[a-z][\w.-]*$/i.test(tag)) throw Object.assign(new Error(`'${tag}' is not a valid tag name.`), { name: "InvalidCharacterError" });
    return new Element(this, tag);
  }

  createTextNode(data: string): Text {
    return new Text(this, String(data));
  }

  getElementById(id: string): Element | null {
    return descendants(this).find((element) => element.getAttribute("id") === String(id)) ?? null;
  }

  querySelectorAll(selectors: string): Element[] {
    const list = parseSelector(String(selectors));
    return descendants(this).filter((element) => matchesList(element, list, null));
  }

  querySelector(selectors: string): Element | null {
    const list = parseSelector(String(selectors));
    return descendants(this).find((element) => matchesList(element, list, null)) ?? null;
  }

  getElementsByTagName(name: string): Element[] {
    return this.documentElement
      ? [this.documentElement, ...this.documentElement.getElementsByTagName(name)].filter(
          (e) => String(name) === "*" || e.localName === String(name).toLowerCase(),
        )
      : [];
  }
}
