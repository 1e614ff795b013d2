// Elements: attributes and the properties that reflect them (id, className, hidden, dataset,
// classList, style), the element tree (children, siblings), selectors (querySelector, matches,
// closest), markup (innerHTML, outerHTML) and text (innerText, which leaves out what is not shown).
import { FocusEvent, fire } from "./events.js";
import { parseInto, serializeChildren, serializeNode, type Builder } from "./html.js";
import { Node, Text, type NodeOwner } from "./nodes.js";
import { dataset, declarations, inlineStyle, tokenList } from "./reflect.js";
import { matchesList, parseSelector } from "./selectors.js";

/** Elements that are never rendered, whatever their styles. */
const NOT_RENDERED = new Set(["head", "script", "style", "template", "title", "meta", "link", "noscript", "base"]);
/** Elements that start a line of their own in innerText. */
const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tr",
  "ul",
]);

export class Element extends Node {
  readonly nodeType = 1;
  readonly localName: string;
  #attributes: Array<{ name: string; value: string }> = [];

  constructor(owner: NodeOwner | null, localName: string) {
    super(owner);
    this.localName = String(localName).toLowerCase();
  }

  get nodeName(): string {
    return this.localName.toUpperCase();
  }

  get tagName(): string {
    return this.nodeName;
  }

  attributeList(): ReadonlyArray<{ name: string; value: string }> {
    return this.#attributes;
  }

  get attributes(): Array<{ name: string; value: string }> {
    return this.#attributes.map(({ name, value }) => ({ name, value }));
  }

  getAttributeNames(): string[] {
    return this.#attributes.map(({ name }) => name);
  }

  getAttribute(name: string): string | null {
    const wanted = String(name).toLowerCase();
    return this.#attributes.find((a) => a.name === wanted)?.value ?? null;
  }

  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }

  setAttribute(name: string, value: unknown): void {
    const key = String(name).toLowerCase();
    if (!/^[^\s"'>/=]+$/.test(key)) throw Object.assign(new Error(`'${String(name)}' is not a valid attribute name.`), { name: "InvalidCharacterError" });
    const existing = this.#attributes.find((a) => a.name === key);
    if (existing) existing.value = String(value);
    else this.#attributes.push({ name: key, value: String(value) });
  }

  removeAttribute(name: string): void {
    const wanted = String(name).toLowerCase();
    this.#attributes = this.#attributes.filter((a) => a.name !== wanted);
  }

  toggleAttribute(name: string, force?: boolean): boolean {
    const on = force ?? !this.hasAttribute(name);
    if (on && !this.hasAttribute(name)) this.setAttribute(name, "");
    if (!on) this.removeAttribute(name);
    return on;
  }

  /** A string property reflecting the attribute `name`. */
  protected reflect(name: string): string {
    return this.getAttribute(name) ?? "";
  }

  get id(): string {
    return this.reflect("id");
  }
  set id(value: string) {
    this.setAttribute("id", value);
  }
  get className(): string {
    return this.reflect("class");
  }
  set className(value: string) {
    this.setAttribute("class", value);
  }
  get title(): string {
    return this.reflect("title");
  }
  set title(value: string) {
    this.setAttribute("title", value);
  }
  get hidden(): boolean {
    return this.hasAttribute("hidden");
  }
  set hidden(value: boolean) {
    this.toggleAttribute("hidden", Boolean(value));
  }

  get classList() {
    return tokenList(this);
  }

  get dataset(): Record<string, string> {
    return dataset(this);
  }

  get style(): Record<string, unknown> {
    return inlineStyle(this);
  }

  get children(): Element[] {
    return this.childNodes.filter((node): node is Element => node instanceof Element);
  }
  get childElementCount(): number {
    return this.children.length;
  }
  get firstElementChild(): Element | null {
    return this.children[0] ?? null;
  }
  get lastElementChild(): Element | null {
    return this.children.at(-1) ?? null;
  }
  get nextElementSibling(): Element | null {
    const siblings = (this.parentNode?.childNodes ?? []).filter((n): n is Element => n instanceof Element);
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  get previousElementSibling(): Element | null {
    const siblings = (this.parentNode?.childNodes ?? []).filter((n): n is Element => n instanceof Element);
    return siblings[siblings.indexOf(this) - 1] ?? null;
  }
  override get parentElement(): Element | null {
    return this.parentNode instanceof Element ? this.parentNode : null;
  }

  querySelectorAll(selectors: string): Element[] {
    return descendants(this).filter((element) => matchesList(element, parseSelector(String(selectors)), this));
  }
  querySelector(selectors: string): Element | null {
    const list = parseSelector(String(selectors));
    return descendants(this).find((element) => matchesList(element, list, this)) ?? null;
  }
  matches(selectors: string): boolean {
    return matchesList(this, parseSelector(String(selectors)), null);
  }
  closest(selectors: string): Element | null {
    const list = parseSelector(String(selectors));
    for (let at: Element | null = this; at; at = at.parentElement) if (matchesList(at, list, null)) return at;
    return null;
  }
  getElementsByTagName(name: string): Element[] {
    const wanted = String(name).toLowerCase();
    return descendants(this).filter((element) => wanted === "*" || element.localName === wanted);
  }
  getElementsByClassName(names: string): Element[] {
    const wanted = String(names).split(/\s+/).filter(Boolean);
    return descendants(this).filter((element) => wanted.every((name) => element.classList.contains(name)));
  }

  get innerHTML(): string {
    return serializeChildren(this);
  }
  set innerHTML(html: string) {
    this.replaceChildren();
    if (this.ownerDocument) parseInto(String(html), this as Node, builderFor(this.ownerDocument));
  }
  get outerHTML(): string {
    return serializeNode(this);
  }
  insertAdjacentHTML(where: string, html: string): void {
    if (!this.ownerDocument) return;
    const holder = this.ownerDocument.createElement("template") as Element;
    holder.innerHTML = html;
    const nodes = [...holder.childNodes];
    const position = String(where).toLowerCase();
    if (position === "beforebegin") this.before(...nodes);
    else if (position === "afterbegin") this.prepend(...nodes);
    else if (position === "beforeend") this.append(...nodes);
    else if (position === "afterend") this.after(...nodes);
    else throw new SyntaxError(`insertAdjacentHTML: '${where}' is not a position`);
  }

  get innerText(): string {
    if (!isRendered(this)) return this.textContent ?? "";
    return visibleText(this)
      .replace(/[ \t]*\n[ \t]*/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .replace(/^\n+|\n+$/g, "");
  }
  set innerText(value: string) {
    this.textContent = value;
  }

  get isContentEditable(): boolean {
    for (let at: Element | null = this; at; at = at.parentElement) {
      const editable = at.getAttribute("contenteditable");
      if (editable === "" || editable === "true" || editable === "plaintext-only") return true;
      if (editable === "false") return false;
    }
    return false;
  }

  focus(): void {
    const owner = this.ownerDocument;
    if (!owner || owner.focused === this || !this.isConnected) return;
    const before = owner.focused;
    owner.focused = this;
    if (before) fire(before, new FocusEvent("blur"));
    fire(this, new FocusEvent("focus"));
  }
  blur(): void {
    const owner = this.ownerDocument;
    if (owner?.focused !== this) return;
    owner.focused = null;
    fire(this, new FocusEvent("blur"));
  }

  scrollIntoView(): void {}

  getBoundingClientRect() {
    return { x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0 };
  }
}

/** Every element below `root`, in document order. */
export function descendants(root: Node): Element[] {
  const found: Element[] = [];
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child instanceof Element) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

/** Whether the element is rendered at all: not hidden, not display:none, in the body's flow. */
export function isRendered(element: Element): boolean {
  for (let at: Element | null = element; at; at = at.parentElement) {
    if (NOT_RENDERED.has(at.localName) || at.hasAttribute("hidden")) return false;
    if (at.localName === "input" && (at.getAttribute("type") ?? "").toLowerCase() === "hidden") return false;
    const style = declarations(at.getAttribute("style") ?? "");
    if (style.get("display") === "none") return false;
    if (at === element && (style.get("visibility") === "hidden" || style.get("visibility") === "collapse")) return false;
  }
  return true;
}

function visibleText(node: Node): string {
  if (node instanceof Text) return node.data.replace(/[\s\u00a0]+/g, (space) => (space.includes("\u00a0") ? space.replace(/\s+/g, " ") : " "));
  if (!(node instanceof Element)) return "";
  if (!isRendered(node)) return "";
  if (node.localName === "br") return "\n";
  const inner = node.childNodes.map(visibleText).join("");
  const cells = node.localName === "td" || node.localName === "th" ? "\t" : "";
  return BLOCKS.has(node.localName) ? `\n${inner}\n` : `${inner}${cells}`;
}

/** How the HTML parser makes this document's nodes. */
export function builderFor(owner: NodeOwner): Builder<Node> {
  return {
    element(name, attributes) {
      const element = owner.createElement(name) as Element;
      for (const [key, value] of attributes) element.setAttribute(key, value);
      return element;
    },
    text: (data) => owner.createTextNode(data),
    append: (parent, child) => {
      parent.appendChild(child);
    },
  };
}
