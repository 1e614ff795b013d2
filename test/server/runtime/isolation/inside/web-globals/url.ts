// URL, over the parts url-parts.ts reads and writes; its searchParams stay tied to its query.
import { listOf, ownerOf, parseForm, URLSearchParams } from "./search-params.js";
import { encodeSet, keepFragment, keepQuery } from "./encoding.js";
import { hrefOf, normalisePath, parseUrl, partsOf, SPECIAL } from "./url-parts.js";

export class URL {
  // Defined in the constructor as a read-only, non-enumerable property, as the platform's is;
  // `declare` so that no class field is emitted before it.
  declare readonly searchParams: URLSearchParams;

  constructor(input: unknown, base?: unknown) {
    const baseParts = base === undefined ? undefined : base instanceof URL ? partsOf.get(base) : partsOf.get(new URL(base));
    partsOf.set(this, parseUrl(input, baseParts));
    const params = new URLSearchParams(this.search);
    ownerOf.set(params, this);
    Object.defineProperty(this, "searchParams", { value: params, enumerable: false });
  }
  static canParse(input: unknown, base?: unknown): boolean {
    try {
      new URL(input, base);
      return true;
    } catch (_) {
      return false;
    }
  }
  get href(): string {
    return hrefOf(partsOf.get(this)!);
  }
  set href(value: unknown) {
    partsOf.set(this, parseUrl(value));
    listOf.set(this.searchParams, parseForm(partsOf.get(this)!.query ?? ""));
  }
  get protocol(): string {
    return partsOf.get(this)!.protocol;
  }
  get username(): string {
    return partsOf.get(this)!.username;
  }
  get password(): string {
    return partsOf.get(this)!.password;
  }
  get host(): string {
    const p = partsOf.get(this)!;
    return (p.hostname ?? "") + (p.port ? `:${p.port}` : "");
  }
  get hostname(): string {
    return partsOf.get(this)!.hostname ?? "";
  }
  get port(): string {
    return partsOf.get(this)!.port;
  }
  get pathname(): string {
    return partsOf.get(this)!.path;
  }
  set pathname(value: unknown) {
    const p = partsOf.get(this)!;
    if (p.opaque) return;
    const text = String(value);
    p.path = normalisePath((text.startsWith("/") ? text : `/${text}`).split("/").slice(1), p.protocol in SPECIAL);
  }
  get search(): string {
    const q = partsOf.get(this)!.query;
    return q ? `?${q}` : "";
  }
  set search(value: unknown) {
    const p = partsOf.get(this)!;
    const text = String(value).replace(/^\?/, "");
    p.query = text === "" ? null : encodeSet(text, keepQuery(p.protocol in SPECIAL));
    listOf.set(this.searchParams, parseForm(p.query ?? ""));
  }
  get hash(): string {
    const f = partsOf.get(this)!.fragment;
    return f ? `#${f}` : "";
  }
  set hash(value: unknown) {
    const text = String(value).replace(/^#/, "");
    partsOf.get(this)!.fragment = text === "" ? null : encodeSet(text, keepFragment);
  }
  get origin(): string {
    const p = partsOf.get(this)!;
    return p.protocol in SPECIAL && p.protocol !== "file:" ? `${p.protocol}//${this.host}` : "null";
  }
  toString(): string {
    return this.href;
  }
  toJSON(): string {
    return this.href;
  }
}
