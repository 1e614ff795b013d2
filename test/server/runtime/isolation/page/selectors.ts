// CSS selectors, as querySelector, matches and closest read them: type, universal, #id, .class,
// attribute selectors ([a], =, ~=, |=, ^=, $=, *=, with the `i` flag), the combinators (descendant,
// >, +, ~), selector lists, and the pseudo-classes :not(), :is(), :where(), :has(), :first-child,
// :last-child, :only-child, :nth-child(), :nth-of-type(), :first-of-type, :empty, :root, :scope,
// :checked, :disabled, :enabled. Anything else is a SyntaxError naming the selector.

/** What matching reads of an element. */
export interface SelectorElement {
  readonly localName: string;
  readonly parentElement: SelectorElement | null;
  readonly previousElementSibling: SelectorElement | null;
  readonly nextElementSibling: SelectorElement | null;
  readonly children: readonly SelectorElement[];
  readonly childNodes: readonly unknown[];
  getAttribute(name: string): string | null;
  /** A form control's state, for :checked and :disabled. */
  readonly checked?: boolean;
  readonly disabled?: boolean;
}

type AttributeTest = { name: string; op: string; value: string; insensitive: boolean };
type Pseudo = { name: string; list?: Complex[]; a?: number; b?: number };
type Compound = { tag?: string; ids: string[]; classes: string[]; attributes: AttributeTest[]; pseudos: Pseudo[] };
type Complex = { parts: Compound[]; combinators: string[] };

const syntaxError = (selector: string) => Object.assign(new SyntaxError(`'${selector}' is not a valid selector`), { name: "SyntaxError" });

const parsed = new Map<string, Complex[]>();

/** The selector list `selector`, parsed (and remembered: pages ask for the same selectors often). */
export function parseSelector(selector: string): Complex[] {
  const known = parsed.get(selector);
  if (known) return known;
  const parser = new Parser(selector);
  const list = parser.list();
  if (!parser.done()) throw syntaxError(selector);
  if (parsed.size > 500) parsed.clear();
  parsed.set(selector, list);
  return list;
}

class Parser {
  private i = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    this.space();
    return this.i >= this.text.length;
  }

  private space(): boolean {
    const start = this.i;
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
    return this.i > start;
  }

  private fail(): never {
    throw syntaxError(this.text);
  }

  private identifier(): string {
    let out = "";
    while (this.i < this.text.length) {
      const c = this.text[this.i]!;
      if (c === "\\" && this.i + 1 < this.text.length) {
        out += this.text[this.i + 1];
        this.i += 2;
      } else if (/[-\w\u00a0-\uffff]/.test(c)) {
        out += c;
        this.i++;
      } else break;
    }
    if (!out) this.fail();
    return out;
  }

  list(): Complex[] {
    const list = [this.complex()];
    for (;;) {
      this.space();
      if (this.text[this.i] !== ",") return list;
      this.i++;
      list.push(this.complex());
    }
  }

  private complex(): Complex {
    this.space();
    const parts = [this.compound()];
    const combinators: string[] = [];
    for (;;) {
      const spaced = this.space();
      const c = this.text[this.i];
      if (c === ">" || c === "+" || c === "~") {
        this.i++;
        this.space();
        combinators.push(c);
      } else if (spaced && c !== undefined && c !== "," && c !== ")") {
        combinators.push(" ");
      } else return { parts, combinators };
      parts.push(this.compound());
    }
  }

  private compound(): Compound {
    const compound: Compound = { ids: [], classes: [], attributes: [], pseudos: [] };
    const start = this.i;
    if (this.text[this.i] === "*") this.i++;
    else if (/[-\w\\\u00a0-\uffff]/.test(this.text[this.i] ?? "")) compound.tag = this.identifier().toLowerCase();
    for (;;) {
      const c = this.text[this.i];
      if (c === "#") {
        this.i++;
        compound.ids.push(this.identifier());
      } else if (c === ".") {
        this.i++;
        compound.classes.push(this.identifier());
      } else if (c === "[") {
        this.i++;
        compound.attributes.push(this.attribute());
      } else if (c === ":") {
        this.i++;
        compound.pseudos.push(this.pseudo());
      } else break;
    }
    if (this.i === start) this.fail();
    return compound;
  }

  private attribute(): AttributeTest {
    this.space();
    const name = this.identifier().toLowerCase();
    this.space();
    const op = /^[~|^$*]?=/.exec(this.text.slice(this.i))?.[0] ?? "";
    let value = "";
    let insensitive = false;
    if (op) {
      this.i += op.length;
      this.space();
      const quote = this.text[this.i];
      if (quote === '"' || quote === "'") {
        let end = this.i + 1;
        while (end < this.text.length && this.text[end] !== quote) end += this.text[end] === "\\" ? 2 : 1;
        if (end >= this.text.length) this.fail();
        value = this.text.slice(this.i + 1, end).replace(/\\(.)/g, "$1");
        this.i = end + 1;
      } else value = this.identifier();
      this.space();
      if (/[is]/i.test(this.text[this.i] ?? "")) insensitive = this.text[this.i++]!.toLowerCase() === "i";
      this.space();
    }
    if (this.text[this.i] !== "]") this.fail();
    this.i++;
    return { name, op, value, insensitive };
  }

  private pseudo(): Pseudo {
    const name = this.identifier().toLowerCase();
    if (["not", "is", "where", "has"].includes(name)) {
      if (this.text[this.i] !== "(") this.fail();
      this.i++;
      const list = this.list();
      this.space();
      if (this.text[this.i] !== ")") this.fail();
      this.i++;
      return { name, list };
    }
    if (name === "nth-child" || name === "nth-of-type" || name === "nth-last-child") {
      if (this.text[this.i] !== "(") this.fail();
      const close = this.text.indexOf(")", this.i);
      if (close < 0) this.fail();
      const { a, b } =
        nth(
          this.text
            .slice(this.i + 1, close)
            .trim()
            .toLowerCase(),
        ) ?? this.fail();
      this.i = close + 1;
      return { name, a, b };
    }
    const simple = ["first-child", "last-child", "only-child", "first-of-type", "last-of-type", "empty", "root", "scope", "checked", "disabled", "enabled"];
    if (!simple.includes(name)) this.fail();
    return { name };
  }
}

/** An+B, odd or even. */
function nth(text: string): { a: number; b: number } | undefined {
  if (text === "odd") return { a: 2, b: 1 };
  if (text === "even") return { a: 2, b: 0 };
  const match = /^([+-]?\d*)n\s*(?:([+-])\s*(\d+))?$|^([+-]?\d+)$/.exec(text);
  if (!match) return undefined;
  if (match[4] !== undefined) return { a: 0, b: Number(match[4]) };
  const a = match[1] === "" || match[1] === "+" ? 1 : match[1] === "-" ? -1 : Number(match[1]);
  return { a, b: match[2] ? Number(`${match[2]}${match[3]}`) : 0 };
}

/** Whether `element` matches the selector list `list` (`:scope` is `scope`). */
export function matchesList(element: SelectorElement, list: Complex[], scope: SelectorElement | null): boolean {
  return list.some((complex) => matchFrom(element, complex, complex.parts.length - 1, scope));
}

function matchFrom(element: SelectorElement, complex: Complex, index: number, scope: SelectorElement | null): boolean {
  if (!matchCompound(element, complex.parts[index]!, scope)) return false;
  if (index === 0) return true;
  const combinator = complex.combinators[index - 1];
  if (combinator === ">") return element.parentElement !== null && matchFrom(element.parentElement, complex, index - 1, scope);
  if (combinator === "+") return element.previousElementSibling !== null && matchFrom(element.previousElementSibling, complex, index - 1, scope);
  if (combinator === "~") {
    for (let at = element.previousElementSibling; at; at = at.previousElementSibling) if (matchFrom(at, complex, index - 1, scope)) return true;
    return false;
  }
  for (let at = element.parentElement; at; at = at.parentElement) if (matchFrom(at, complex, index - 1, scope)) return true;
  return false;
}

function matchCompound(element: SelectorElement, compound: Compound, scope: SelectorElement | null): boolean {
  if (compound.tag !== undefined && compound.tag !== element.localName) return false;
  if (compound.ids.some((id) => element.getAttribute("id") !== id)) return false;
  if (compound.classes.length) {
    const classes = (element.getAttribute("class") ?? "").split(/\s+/);
    if (compound.classes.some((c) => !classes.includes(c))) return false;
  }
  return compound.attributes.every((test) => matchAttribute(element, test)) && compound.pseudos.every((pseudo) => matchPseudo(element, pseudo, scope));
}

function matchAttribute(element: SelectorElement, { name, op, value, insensitive }: AttributeTest): boolean {
  let actual = element.getAttribute(name);
  if (actual === null) return false;
  if (!op) return true;
  let wanted = value;
  if (insensitive) {
    actual = actual.toLowerCase();
    wanted = wanted.toLowerCase();
  }
  switch (op) {
    case "=":
      return actual === wanted;
    case "~=":
      return actual.split(/\s+/).includes(wanted);
    case "|=":
      return actual === wanted || actual.startsWith(`${wanted}-`);
    case "^=":
      return wanted !== "" && actual.startsWith(wanted);
    case "$=":
      return wanted !== "" && actual.endsWith(wanted);
    default:
      return wanted !== "" && actual.includes(wanted);
  }
}

function position(element: SelectorElement, sameType: boolean, fromEnd: boolean): number {
  const siblings = (element.parentElement?.children ?? [element]).filter((s) => !sameType || s.localName === element.localName);
  const index = siblings.indexOf(element);
  return fromEnd ? siblings.length - index : index + 1;
}

function matchPseudo(element: SelectorElement, pseudo: Pseudo, scope: SelectorElement | null): boolean {
  switch (pseudo.name) {
    case "not":
      return !matchesList(element, pseudo.list!, scope);
    case "is":
    case "where":
      return matchesList(element, pseudo.list!, scope);
    case "has": {
      const below = (at: SelectorElement): boolean => at.children.some((child) => matchesList(child, pseudo.list!, element) || below(child));
      return below(element);
    }
    case "first-child":
      return position(element, false, false) === 1;
    case "last-child":
      return position(element, false, true) === 1;
    case "only-child":
      return position(element, false, false) === 1 && position(element, false, true) === 1;
    case "first-of-type":
      return position(element, true, false) === 1;
    case "last-of-type":
      return position(element, true, true) === 1;
    case "nth-child":
    case "nth-of-type":
    case "nth-last-child": {
      const n = position(element, pseudo.name === "nth-of-type", pseudo.name === "nth-last-child");
      const { a = 0, b = 0 } = pseudo;
      return a === 0 ? n === b : (n - b) / a >= 0 && (n - b) % a === 0;
    }
    case "empty":
      return element.childNodes.length === 0;
    case "root":
      return element.parentElement === null && element.localName === "html";
    case "scope":
      return scope === null ? element.parentElement === null : element === scope;
    case "checked":
      return element.checked === true;
    case "disabled":
      return element.disabled === true;
    default:
      return element.disabled !== true;
  }
}
