// The page's window: the globals a page's script and a script's evaluate function find (document,
// location, history, navigator, crypto with crypto.subtle.digest, the DOM's classes, the web
// globals), and where the page goes: a new #hash at once (with hashchange), another document
// noted for the sandbox to load.
import { installCrypto } from "../inside/crypto.js";
import { webGlobals } from "../inside/web-globals/index.js";
import { URL } from "../inside/web-globals/url.js";
import { Document } from "./document.js";
import { Element } from "./element.js";
import * as events from "./events.js";
import { Blob, DataTransfer, DataTransferItem, DataTransferItemList, File, FileList } from "./files.js";
import { onNavigate } from "./navigation.js";
import { Node, Text } from "./nodes.js";
import { sha256 } from "./sha256.js";

/** The window's own events (hashchange, popstate, load) and where a document's events end. */
export const windowTarget = new events.EventTarget();

/** Where the page is, and the document it is going to next (undefined: staying). */
export const place = { url: "about:blank", requested: undefined as string | undefined };

function urlOf(text: string): URL | undefined {
  try {
    return new URL(text, place.url === "about:blank" ? undefined : place.url);
  } catch (_) {
    return undefined;
  }
}

/** Goes to `target`: within the document when only the hash changes, else noted for the sandbox. */
function go(target: string): void {
  const next = urlOf(target);
  if (!next) throw Object.assign(new Error(`'${target}' is not a valid URL.`), { name: "SyntaxError" });
  const here = urlOf(place.url);
  if (here && next.hash !== "" && next.href.split("#")[0] === here.href.split("#")[0]) {
    const oldURL = place.url;
    place.url = next.href;
    if (next.hash !== here.hash) {
      Promise.resolve().then(() => events.fire(windowTarget, Object.assign(new events.Event("hashchange"), { oldURL, newURL: next.href })));
    }
    return;
  }
  place.requested = next.href;
}

class Location {
  get href(): string {
    return place.url;
  }
  set href(value: string) {
    go(String(value));
  }
  private part(): URL | undefined {
    return urlOf(place.url);
  }
  get origin(): string {
    return this.part()?.origin ?? "null";
  }
  get protocol(): string {
    return this.part()?.protocol ?? "about:";
  }
  get host(): string {
    return this.part()?.host ?? "";
  }
  get hostname(): string {
    return this.part()?.hostname ?? "";
  }
  get port(): string {
    return this.part()?.port ?? "";
  }
  get pathname(): string {
    return this.part()?.pathname ?? "blank";
  }
  get search(): string {
    return this.part()?.search ?? "";
  }
  get hash(): string {
    return this.part()?.hash ?? "";
  }
  set hash(value: string) {
    const raw = String(value);
    go(`#${raw.startsWith("#") ? raw.slice(1) : raw}`);
  }
  assign(url: string): void {
    go(String(url));
  }
  replace(url: string): void {
    go(String(url));
  }
  reload(): void {
    place.requested = place.url;
  }
  toString(): string {
    return place.url;
  }
}

let historyState: unknown = null;

const history = {
  get length() {
    return 1;
  },
  get state() {
    return historyState;
  },
  pushState(state: unknown, _title: unknown, url?: string | null) {
    if (url !== undefined && url !== null) {
      const next = urlOf(String(url));
      const here = urlOf(place.url);
      if (!next || !here || next.origin !== here.origin)
        throw Object.assign(
          new Error(`A history state object with URL '${String(url)}' cannot be created in a document with origin '${here?.origin ?? "null"}'.`),
          { name: "SecurityError" },
        );
      place.url = next.href;
    }
    historyState = state;
  },
  replaceState(state: unknown, title: unknown, url?: string | null) {
    history.pushState(state, title, url);
  },
  back() {},
  forward() {},
  go() {},
};

const navigator = {
  language: "en-US",
  languages: ["en-US", "en"],
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) ReduckSandbox/SimulatedPage",
  platform: "Linux x86_64",
  onLine: true,
  cookieEnabled: false,
};

const quiet = () => undefined;
const console = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet, dir: quiet, table: quiet };

const subtle = {
  async digest(algorithm: unknown, data: unknown): Promise<ArrayBuffer> {
    const name = typeof algorithm === "string" ? algorithm : (algorithm as { name?: unknown } | null)?.name;
    if (String(name).toUpperCase() !== "SHA-256")
      throw Object.assign(new Error(`crypto.subtle.digest: the simulated page has SHA-256 only (not ${String(name)})`), { name: "NotSupportedError" });
    let bytes: Uint8Array;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else throw new TypeError("crypto.subtle.digest: give an ArrayBuffer or a typed array");
    return sha256(bytes).buffer as ArrayBuffer;
  },
};

function define(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
}

let document: Document | undefined;

/** The page's document. */
export function currentDocument(): Document {
  if (!document) throw new Error("the page has no document yet");
  return document;
}

/** Makes `html` the page's document at `url` (this realm holds one document for its life). */
export function openDocument(html: string, url: string): Document {
  place.url = url;
  place.requested = undefined;
  document = Document.parse(html, url, windowTarget);
  define("document", document);
  return document;
}

/** Puts the window's globals on this realm's globalThis. */
export function installWindow(): void {
  webGlobals();
  installCrypto();
  Object.defineProperty((globalThis as unknown as { crypto: object }).crypto, "subtle", { value: subtle, configurable: true });
  onNavigate(go);
  define("window", globalThis);
  define("self", globalThis);
  define("location", new Location());
  define("history", history);
  define("navigator", navigator);
  define("console", console);
  define("addEventListener", windowTarget.addEventListener.bind(windowTarget));
  define("removeEventListener", windowTarget.removeEventListener.bind(windowTarget));
  define("dispatchEvent", windowTarget.dispatchEvent.bind(windowTarget));
  define("getComputedStyle", (element: Element) => element.style);
  const classes: Record<string, unknown> = {
    Node,
    Text,
    Element,
    HTMLElement: Element,
    Document,
    Blob,
    File,
    FileList,
    DataTransfer,
    DataTransferItem,
    DataTransferItemList,
    ...events,
  };
  for (const [name, value] of Object.entries(classes)) if (typeof value === "function" && /^[A-Z]/.test(name)) define(name, value);
}
