// Parsing a URL into its parts, resolving it against a base and writing it back, as the URL
// standard does for the URLs scripts meet (held against Node's URL in test/server/client-checks/web-globals.test.ts).
import { encodeSet, fromUtf8, keepFragment, keepOpaque, keepPath, keepQuery, keepUserinfo, percentDecodeBytes } from "./encoding.js";

/** A parsed URL; `hostname` is null for a URL with no authority (`mailto:`), `query` and `fragment` when absent. */
export type Parts = {
  protocol: string;
  username: string;
  password: string;
  hostname: string | null;
  port: string;
  path: string;
  opaque: boolean;
  query: string | null;
  fragment: string | null;
};

/** The special schemes and their default ports. */
export const SPECIAL: Record<string, string> = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21", "file:": "" };
/** Each URL object's parts (kept off the object, so a script sees only its accessors). */
export const partsOf = new WeakMap<object, Parts>();
const FORBIDDEN_HOST = /[\u0000\t\n\r #/:<>?@[\\\]^|%]/;

const invalid = (what: string) => new TypeError(`Invalid URL: ${what}`);

function parseHost(text: string, special: boolean): string {
  if (text.startsWith("[")) {
    if (!/^\[[0-9a-fA-F:.]+\]$/.test(text)) throw invalid("bad IPv6 address");
    return text.toLowerCase();
  }
  if (!special) {
    if (/[\u0000\t\n\r #/:<>?@[\\\]^|]/.test(text)) throw invalid("forbidden character in host");
    return encodeSet(text, keepOpaque);
  }
  const host = fromUtf8(percentDecodeBytes(text), false).toLowerCase();
  if (FORBIDDEN_HOST.test(host)) throw invalid("forbidden character in host");
  // A host whose last label is a number (decimal, 0x hex or 0 octal) is an IPv4 address,
  // written back in dotted decimal as Node writes it.
  const labels = host.split(".");
  if (labels.length > 1 && labels[labels.length - 1] === "") labels.pop();
  const number = (label: string) =>
    /^0x[0-9a-f]*$/.test(label)
      ? parseInt(label.slice(2) || "0", 16)
      : /^0[0-7]+$/.test(label)
        ? parseInt(label, 8)
        : /^(0|[1-9][0-9]*)$/.test(label)
          ? Number(label)
          : NaN;
  if (/^(0x[0-9a-f]*|[0-9]+)$/.test(labels[labels.length - 1]!)) {
    const numbers = labels.map(number);
    if (labels.length > 4 || numbers.some((n) => Number.isNaN(n))) throw invalid("bad IPv4 address");
    const last = numbers.pop()!;
    if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) throw invalid("bad IPv4 address");
    let value = last;
    numbers.forEach((n, i) => (value += n * 256 ** (3 - i)));
    return [Math.floor(value / 2 ** 24), Math.floor(value / 2 ** 16) % 256, Math.floor(value / 256) % 256, value % 256].join(".");
  }
  return host;
}

/** A path from its segments, with `.` and `..` (and their percent-encoded forms) resolved. */
export function normalisePath(segments: string[], special: boolean): string {
  const out: string[] = [];
  segments.forEach((raw, i) => {
    const seg = raw.toLowerCase();
    const last = i === segments.length - 1;
    if (seg === ".." || seg === ".%2e" || seg === "%2e." || seg === "%2e%2e") {
      if (out.length) out.pop();
      if (last) out.push("");
    } else if (seg === "." || seg === "%2e") {
      if (last) out.push("");
    } else out.push(encodeSet(raw, keepPath));
  });
  return special || out.length ? `/${out.join("/")}` : "";
}

function splitTail(text: string): { head: string; query: string | null; fragment: string | null } {
  const hash = text.indexOf("#");
  const fragment = hash < 0 ? null : text.slice(hash + 1);
  const rest = hash < 0 ? text : text.slice(0, hash);
  const mark = rest.indexOf("?");
  return { head: mark < 0 ? rest : rest.slice(0, mark), query: mark < 0 ? null : rest.slice(mark + 1), fragment };
}

/** The parts of `input`, resolved against `base` when it is relative; throws a TypeError when it is no URL. */
export function parseUrl(input: unknown, base?: Parts): Parts {
  const text = String(input)
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "")
    .replace(/[\t\n\r]/g, "");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text);
  const protocol = scheme ? `${scheme[1]!.toLowerCase()}:` : null;
  if (!protocol) {
    if (!base) throw invalid(`${JSON.stringify(String(input))} is not absolute and no base was given`);
    return resolve(text, base);
  }
  let rest = text.slice(scheme![0].length);
  const special = protocol in SPECIAL;
  if (special) rest = rest.replace(/\\/g, "/");
  if (special && base && base.protocol === protocol && !rest.startsWith("/")) return resolve(rest, base);
  const parts: Parts = { protocol, username: "", password: "", hostname: null, port: "", path: "", opaque: false, query: null, fragment: null };
  if (rest.startsWith("//") || (special && protocol !== "file:")) {
    rest = rest.replace(special && protocol !== "file:" ? /^\/*/ : /^\/\//, "");
    const end = rest.search(/[/?#]/);
    const authority = end < 0 ? rest : rest.slice(0, end);
    rest = end < 0 ? "" : rest.slice(end);
    authorityInto(parts, authority, special);
  } else if (special) {
    parts.hostname = "";
  }
  const { head, query, fragment } = splitTail(rest);
  if (parts.hostname === null && !head.startsWith("/")) {
    parts.opaque = true;
    parts.path = encodeSet(head, keepOpaque);
  } else {
    parts.path = normalisePath(head.split("/").slice(1), special);
  }
  parts.query = query === null ? null : encodeSet(query, keepQuery(special));
  parts.fragment = fragment === null ? null : encodeSet(fragment, keepFragment);
  return parts;
}

function authorityInto(parts: Parts, authority: string, special: boolean): void {
  const at = authority.lastIndexOf("@");
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(":");
    parts.username = encodeSet(colon < 0 ? userinfo : userinfo.slice(0, colon), keepUserinfo);
    parts.password = colon < 0 ? "" : encodeSet(userinfo.slice(colon + 1), keepUserinfo);
    authority = authority.slice(at + 1);
  }
  const port = /:([^\]]*)$/.exec(authority);
  const host = port ? authority.slice(0, port.index) : authority;
  if (port && port[1] !== "") {
    if (!/^[0-9]+$/.test(port[1]!) || Number(port[1]) > 65535) throw invalid("bad port");
    parts.port = String(Number(port[1]));
    if (special && SPECIAL[parts.protocol] === parts.port) parts.port = "";
  }
  if (host === "" && special && parts.protocol !== "file:") throw invalid("empty host");
  parts.hostname = parseHost(host, special);
}

function resolve(text: string, base: Parts): Parts {
  const special = base.protocol in SPECIAL;
  if (special) text = text.replace(/\\/g, "/");
  if (text.startsWith("//")) return parseUrl(`${base.protocol}${text}`);
  const { head, query, fragment } = splitTail(text);
  if (base.opaque) {
    if (head !== "" || query !== null) throw invalid("a relative reference cannot go against a base with an opaque path");
    return { ...base, fragment: fragment === null ? null : encodeSet(fragment, keepFragment) };
  }
  const parts = { ...base, fragment: fragment === null ? null : encodeSet(fragment, keepFragment) };
  if (head === "") {
    if (query !== null) parts.query = encodeSet(query, keepQuery(special));
    return parts;
  }
  parts.query = query === null ? null : encodeSet(query, keepQuery(special));
  const baseSegments = base.path.split("/").slice(1, -1);
  const segments = head.startsWith("/") ? head.split("/").slice(1) : [...baseSegments, ...head.split("/")];
  parts.path = normalisePath(segments, special);
  return parts;
}

/** The URL written back from its parts. */
export function hrefOf(p: Parts): string {
  let out = p.protocol;
  if (p.hostname !== null) {
    out += "//";
    if (p.username || p.password) out += `${p.username}${p.password ? `:${p.password}` : ""}@`;
    out += p.hostname + (p.port ? `:${p.port}` : "");
  }
  out += p.path;
  if (p.query !== null) out += `?${p.query}`;
  if (p.fragment !== null) out += `#${p.fragment}`;
  return out;
}
