// The properties that reflect an element's attributes as objects: classList, dataset and style.

/** What these read and write of an element. */
export interface Attributed {
  readonly className: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: unknown): void;
  removeAttribute(name: string): void;
  getAttributeNames(): string[];
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The declarations of a style attribute, by property name. */
export function declarations(style: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of style.split(";")) {
    const colon = part.indexOf(":");
    if (colon > 0) found.set(part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim());
  }
  return found;
}

/** `element.classList`: its class attribute as a list of tokens. */
export function tokenList(element: Attributed) {
  const tokens = () => element.className.split(/\s+/).filter(Boolean);
  const write = (list: string[]) => element.setAttribute("class", [...new Set(list)].join(" "));
  return {
    get length() {
      return tokens().length;
    },
    get value() {
      return element.className;
    },
    contains: (token: string) => tokens().includes(String(token)),
    add: (...added: string[]) => write([...tokens(), ...added.map(String)]),
    remove: (...removed: string[]) => write(tokens().filter((t) => !removed.map(String).includes(t))),
    toggle(token: string, force?: boolean) {
      const on = force ?? !tokens().includes(String(token));
      write(on ? [...tokens(), String(token)] : tokens().filter((t) => t !== String(token)));
      return on;
    },
    item: (index: number) => tokens()[index] ?? null,
    [Symbol.iterator]: () => tokens()[Symbol.iterator](),
  };
}

/** `element.dataset`: its data-* attributes by camel-cased name. */
export function dataset(element: Attributed): Record<string, string> {
  return new Proxy(Object.create(null) as Record<string, string>, {
    get: (_, key) => (typeof key === "string" ? (element.getAttribute(`data-${kebab(key)}`) ?? undefined) : undefined),
    set(_, key, value) {
      if (typeof key === "string") element.setAttribute(`data-${kebab(key)}`, value);
      return true;
    },
    deleteProperty(_, key) {
      if (typeof key === "string") element.removeAttribute(`data-${kebab(key)}`);
      return true;
    },
    has: (_, key) => typeof key === "string" && element.hasAttribute(`data-${kebab(key)}`),
    ownKeys: () => element.getAttributeNames().flatMap((name) => (name.startsWith("data-") ? [camel(name.slice(5))] : [])),
    getOwnPropertyDescriptor: (_, key) =>
      typeof key === "string" && element.hasAttribute(`data-${kebab(key)}`)
        ? { value: element.getAttribute(`data-${kebab(key)}`), enumerable: true, configurable: true, writable: true }
        : undefined,
  });
}

/** `element.style`: its style attribute's declarations, by camel-cased or dashed name. */
export function inlineStyle(element: Attributed): Record<string, unknown> {
  const read = () => declarations(element.getAttribute("style") ?? "");
  const write = (map: Map<string, string>) => element.setAttribute("style", [...map].map(([k, v]) => `${k}: ${v}`).join("; "));
  const set = (name: string, value: unknown) => {
    const map = read();
    if (value === null || value === "" || value === undefined) map.delete(name);
    else map.set(name, String(value));
    write(map);
  };
  const methods: Record<string, unknown> = {
    getPropertyValue: (name: string) => read().get(String(name).toLowerCase()) ?? "",
    setProperty: (name: string, value: unknown) => set(String(name).toLowerCase(), value),
    removeProperty: (name: string) => set(String(name).toLowerCase(), null),
  };
  return new Proxy(methods, {
    get: (target, key) =>
      typeof key !== "string"
        ? undefined
        : key in target
          ? target[key]
          : key === "cssText"
            ? (element.getAttribute("style") ?? "")
            : (read().get(kebab(key)) ?? ""),
    set(_, key, value) {
      if (key === "cssText") element.setAttribute("style", String(value));
      else if (typeof key === "string") set(kebab(key), value);
      return true;
    },
  });
}
