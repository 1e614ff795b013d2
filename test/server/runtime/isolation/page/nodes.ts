// The tree the simulated page's document is made of: nodes with their parent and children, text
// nodes, and the operations pages use to change it (append, replaceChildren, remove...).
import { EventTarget } from "./events.js";

/** What a node reads of the document it belongs to (document.ts is the one implementation). */
export interface NodeOwner {
  /** The document's address: what relative links and form actions resolve against. */
  readonly URL: string;
  /** The element with focus, if any. */
  focused: Node | null;
  createElement(name: string): Node;
  createTextNode(data: string): Node;
  eventParent(): EventTarget | null;
}

export abstract class Node extends EventTarget {
  static readonly ELEMENT_NODE = 1;
  static readonly TEXT_NODE = 3;
  static readonly DOCUMENT_NODE = 9;
  parentNode: Node | null = null;
  readonly childNodes: Node[] = [];
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;

  constructor(public ownerDocument: NodeOwner | null) {
    super();
  }

  get parentElement(): Node | null {
    return this.parentNode && this.parentNode.nodeType === 1 ? this.parentNode : null;
  }

  get firstChild(): Node | null {
    return this.childNodes[0] ?? null;
  }

  get lastChild(): Node | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }

  get nextSibling(): Node | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? (siblings[siblings.indexOf(this) + 1] ?? null) : null;
  }

  get previousSibling(): Node | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? (siblings[siblings.indexOf(this) - 1] ?? null) : null;
  }

  /** Whether the node is in a document (what Playwright calls attached). */
  get isConnected(): boolean {
    let at: Node | null = this;
    while (at.parentNode) at = at.parentNode;
    return at.nodeType === 9;
  }

  get nodeValue(): string | null {
    return null;
  }

  get textContent(): string | null {
    let text = "";
    for (const child of this.childNodes) if (child.nodeType !== 8) text += child.textContent ?? "";
    return text;
  }

  set textContent(value: string | null) {
    this.replaceChildren(...(value === null || value === "" ? [] : [String(value)]));
  }

  hasChildNodes(): boolean {
    return this.childNodes.length > 0;
  }

  contains(other: unknown): boolean {
    for (let at = other instanceof Node ? other : null; at; at = at.parentNode) if (at === this) return true;
    return false;
  }

  getRootNode(): Node {
    let at: Node = this;
    while (at.parentNode) at = at.parentNode;
    return at;
  }

  override eventParent(): EventTarget | null {
    return this.parentNode;
  }

  /** `value` as a node of this document: a node as it is, anything else as text. */
  protected adopt(value: unknown): Node {
    if (value instanceof Node) return value;
    const owner = this.nodeType === 9 ? (this as unknown as NodeOwner) : this.ownerDocument;
    if (!owner) throw new TypeError("this node belongs to no document");
    return owner.createTextNode(String(value));
  }

  insertBefore<T extends Node>(node: T, reference: Node | null): T {
    if (!(node instanceof Node)) throw new TypeError("insertBefore: give a node");
    if (node.contains(this)) throw Object.assign(new Error("The new child element contains the parent."), { name: "HierarchyRequestError" });
    if (reference !== null && reference.parentNode !== this)
      throw Object.assign(new Error("The node before which the new node is to be inserted is not a child of this node."), { name: "NotFoundError" });
    if (node === reference) return node;
    node.remove();
    const at = reference === null ? this.childNodes.length : this.childNodes.indexOf(reference);
    this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }

  appendChild<T extends Node>(node: T): T {
    return this.insertBefore(node, null);
  }

  removeChild<T extends Node>(node: T): T {
    if (!(node instanceof Node) || node.parentNode !== this)
      throw Object.assign(new Error("The node to be removed is not a child of this node."), { name: "NotFoundError" });
    node.remove();
    return node;
  }

  replaceChild<T extends Node>(node: Node, old: T): T {
    this.insertBefore(node, old);
    return this.removeChild(old);
  }

  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    const at = parent.childNodes.indexOf(this);
    if (at >= 0) parent.childNodes.splice(at, 1);
    this.parentNode = null;
    const owner = this.ownerDocument;
    if (owner?.focused && this.contains(owner.focused)) owner.focused = null;
  }

  append(...nodes: unknown[]): void {
    for (const node of nodes) this.appendChild(this.adopt(node));
  }

  prepend(...nodes: unknown[]): void {
    const first = this.firstChild;
    for (const node of nodes) this.insertBefore(this.adopt(node), first);
  }

  replaceChildren(...nodes: unknown[]): void {
    const adopted = nodes.map((node) => this.adopt(node));
    for (const child of [...this.childNodes]) child.remove();
    for (const node of adopted) this.appendChild(node);
  }

  before(...nodes: unknown[]): void {
    const parent = this.parentNode;
    for (const node of nodes) parent?.insertBefore(this.adopt(node), this);
  }

  after(...nodes: unknown[]): void {
    const parent = this.parentNode;
    let next = this.nextSibling;
    for (const node of nodes) {
      const adopted = this.adopt(node);
      parent?.insertBefore(adopted, next);
      next = adopted.nextSibling;
    }
  }
}

export class Text extends Node {
  readonly nodeType = 3;
  readonly nodeName = "#text";

  constructor(
    owner: NodeOwner | null,
    public data: string,
  ) {
    super(owner);
  }

  override get nodeValue(): string {
    return this.data;
  }

  override get textContent(): string {
    return this.data;
  }

  override set textContent(value: string | null) {
    this.data = value === null ? "" : String(value);
  }

  get wholeText(): string {
    return this.data;
  }

  get length(): number {
    return this.data.length;
  }
}
