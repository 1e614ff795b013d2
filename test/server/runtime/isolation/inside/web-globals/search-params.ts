// URLSearchParams: the application/x-www-form-urlencoded list of a query, and, for a URL's own
// searchParams, written back into that URL's query on every change.
import { encodeSet, fromUtf8, type Keep, percentDecodeBytes } from "./encoding.js";
import { partsOf } from "./url-parts.js";

type Pair = [string, string];

const formKeep: Keep = (c, ch) => /[A-Za-z0-9*\-._]/.test(ch) || c === 0x20;
const formEncode = (text: string) => encodeSet(text, formKeep).replace(/ /g, "+");
const formDecode = (text: string) => fromUtf8(percentDecodeBytes(text.replace(/\+/g, " ")), false);

/** The name-value pairs of a query (without its `?`). */
export function parseForm(text: string): Pair[] {
  const list: Pair[] = [];
  for (const piece of text.split("&")) {
    if (piece === "") continue;
    const at = piece.indexOf("=");
    list.push(at < 0 ? [formDecode(piece), ""] : [formDecode(piece.slice(0, at)), formDecode(piece.slice(at + 1))]);
  }
  return list;
}

/** Each object's pairs, and the URL a URL's searchParams belongs to (kept off the objects). */
export const listOf = new WeakMap<URLSearchParams, Pair[]>();
export const ownerOf = new WeakMap<URLSearchParams, object>();

export class URLSearchParams {
  constructor(init: unknown = "") {
    let list: Pair[] = [];
    if (init instanceof URLSearchParams) list = listOf.get(init)!.map(([k, v]) => [k, v]);
    else if (init !== null && typeof init === "object" && typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const pair of init as Iterable<Iterable<unknown>>) {
        const items = [...pair];
        if (items.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple");
        list.push([String(items[0]), String(items[1])]);
      }
    } else if (init !== null && typeof init === "object") {
      for (const key of Object.keys(init)) list.push([key, String((init as Record<string, unknown>)[key])]);
    } else {
      const text = String(init);
      list = parseForm(text.startsWith("?") ? text.slice(1) : text);
    }
    listOf.set(this, list);
  }
  get size(): number {
    return listOf.get(this)!.length;
  }
  append(name: unknown, value: unknown): void {
    listOf.get(this)!.push([String(name), String(value)]);
    changed(this);
  }
  delete(name: unknown, value?: unknown): void {
    const list = listOf.get(this)!;
    const keepIt = ([k, v]: Pair) => k !== String(name) || (value !== undefined && v !== String(value));
    listOf.set(this, list.filter(keepIt));
    changed(this);
  }
  get(name: unknown): string | null {
    const found = listOf.get(this)!.find(([k]) => k === String(name));
    return found ? found[1] : null;
  }
  getAll(name: unknown): string[] {
    return listOf
      .get(this)!
      .filter(([k]) => k === String(name))
      .map(([, v]) => v);
  }
  has(name: unknown, value?: unknown): boolean {
    return listOf.get(this)!.some(([k, v]) => k === String(name) && (value === undefined || v === String(value)));
  }
  set(name: unknown, value: unknown): void {
    const list = listOf.get(this)!;
    const first = list.findIndex(([k]) => k === String(name));
    if (first < 0) list.push([String(name), String(value)]);
    else {
      list[first] = [String(name), String(value)];
      listOf.set(
        this,
        list.filter(([k], i) => i <= first || k !== String(name)),
      );
    }
    changed(this);
  }
  sort(): void {
    // Stable, by UTF-16 code units, as the standard says.
    const list = listOf.get(this)!.map((pair, i): [Pair, number] => [pair, i]);
    list.sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j));
    listOf.set(
      this,
      list.map(([pair]) => pair),
    );
    changed(this);
  }
  forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: unknown): void {
    for (const [k, v] of listOf.get(this)!) callback.call(thisArg, v, k, this);
  }
  *entries(): Generator<Pair> {
    for (const [k, v] of listOf.get(this)!) yield [k, v];
  }
  *keys(): Generator<string> {
    for (const [k] of listOf.get(this)!) yield k;
  }
  *values(): Generator<string> {
    for (const [, v] of listOf.get(this)!) yield v;
  }
  [Symbol.iterator](): Generator<Pair> {
    return this.entries();
  }
  toString(): string {
    return listOf
      .get(this)!
      .map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`)
      .join("&");
  }
}

/** A URL's searchParams writes back into the URL's query. */
function changed(params: URLSearchParams): void {
  const url = ownerOf.get(params);
  if (!url) return;
  const text = params.toString();
  partsOf.get(url)!.query = text === "" ? null : text;
}
