// The few web-platform globals script bodies use besides `page`: URL, URLSearchParams, atob, btoa,
// TextEncoder and TextDecoder. The worker evaluates `webGlobals`'s source inside the body's context
// (script-worker.mjs), so they are made of that context's own objects: handing in Node's would hand
// the body a way back to the server's realm (`URL.constructor.constructor("return process")()`).
// Written as plain JavaScript that depends on nothing outside the function: its text is what runs.
// test/server/web-globals.test.ts holds each against Node's own implementation.

/** Defines the globals on the context's `globalThis`. */
export function webGlobals() {
  "use strict";
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  const invalid = (what) => new TypeError(`Invalid URL: ${what}`);

  // --- UTF-8 and percent-encoding -------------------------------------------------------------

  function utf8(text) {
    const bytes = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        } else c = 0xfffd;
      } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return bytes;
  }

  function fromUtf8(bytes, fatal) {
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const b = bytes[i];
      let need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
      let c = need === 0 ? b : need === 1 ? b & 31 : need === 2 ? b & 15 : b & 7;
      let j = i + 1;
      // Second-byte bounds exclude overlong forms and surrogates (as the Encoding standard does).
      const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      for (let k = 0; need > 0 && k < need; k++, j++) {
        const next = bytes[j];
        if (next === undefined || next < (k === 0 ? low : 0x80) || next > (k === 0 ? high : 0xbf)) {
          need = -1;
          break;
        }
        c = (c << 6) | (next & 63);
      }
      if (need < 0) {
        if (fatal) throw new TypeError("The encoded data was not valid for encoding utf-8");
        out += "\ufffd";
        i = Math.max(j, i + 1);
        continue;
      }
      out += String.fromCodePoint(c);
      i = j;
    }
    return out;
  }

  const HEX = "0123456789ABCDEF";
  /** Percent-encodes what `keep(code)` does not keep, byte by byte in UTF-8. */
  function encodeSet(text, keep) {
    let out = "";
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (code < 0x80 && keep(code, ch)) out += ch;
      else for (const byte of utf8(ch)) out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
    }
    return out;
  }
  const controlOrSpace = (c) => c <= 0x20 || c === 0x7f;
  const keepFragment = (c, ch) => !controlOrSpace(c) && !'"<>`'.includes(ch);
  const keepQuery = (special) => (c, ch) => !controlOrSpace(c) && !'"#<>'.includes(ch) && !(special && ch === "'");
  const keepPath = (c, ch) => !controlOrSpace(c) && !'"#<>?`{}'.includes(ch);
  const keepUserinfo = (c, ch) => keepPath(c, ch) && !"/:;=@[\\]^|".includes(ch);
  const keepOpaque = (c) => c >= 0x20 && c !== 0x7f;

  function percentDecodeBytes(text) {
    const bytes = [];
    const raw = utf8(text);
    for (let i = 0; i < raw.length; i++) {
      const hex = String.fromCharCode(raw[i + 1] ?? 0, raw[i + 2] ?? 0);
      if (raw[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(raw[i]);
    }
    return bytes;
  }

  // --- URLSearchParams ------------------------------------------------------------------------

  const formKeep = (c, ch) => /[A-Za-z0-9*\-._]/.test(ch) || c === 0x20;
  const formEncode = (text) => encodeSet(text, formKeep).replace(/ /g, "+");
  const formDecode = (text) => fromUtf8(percentDecodeBytes(text.replace(/\+/g, " ")), false);

  function parseForm(text) {
    const list = [];
    for (const piece of text.split("&")) {
      if (piece === "") continue;
      const at = piece.indexOf("=");
      list.push(at < 0 ? [formDecode(piece), ""] : [formDecode(piece.slice(0, at)), formDecode(piece.slice(at + 1))]);
    }
    return list;
  }

  const listOf = new WeakMap();
  const ownerOf = new WeakMap();

  class URLSearchParams {
    constructor(init = "") {
      let list = [];
      if (init instanceof URLSearchParams) list = listOf.get(init).map(([k, v]) => [k, v]);
      else if (init !== null && typeof init === "object" && typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          const items = [...pair];
          if (items.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple");
          list.push([String(items[0]), String(items[1])]);
        }
      } else if (init !== null && typeof init === "object") {
        for (const key of Object.keys(init)) list.push([key, String(init[key])]);
      } else {
        const text = String(init);
        list = parseForm(text.startsWith("?") ? text.slice(1) : text);
      }
      listOf.set(this, list);
    }
    get size() {
      return listOf.get(this).length;
    }
    append(name, value) {
      listOf.get(this).push([String(name), String(value)]);
      changed(this);
    }
    delete(name, value) {
      const list = listOf.get(this);
      const keepIt = ([k, v]) => k !== String(name) || (value !== undefined && v !== String(value));
      listOf.set(this, list.filter(keepIt));
      changed(this);
    }
    get(name) {
      const found = listOf.get(this).find(([k]) => k === String(name));
      return found ? found[1] : null;
    }
    getAll(name) {
      return listOf
        .get(this)
        .filter(([k]) => k === String(name))
        .map(([, v]) => v);
    }
    has(name, value) {
      return listOf.get(this).some(([k, v]) => k === String(name) && (value === undefined || v === String(value)));
    }
    set(name, value) {
      const list = listOf.get(this);
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
    sort() {
      // Stable, by UTF-16 code units, as the standard says.
      const list = listOf.get(this).map((pair, i) => [pair, i]);
      list.sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j));
      listOf.set(
        this,
        list.map(([pair]) => pair),
      );
      changed(this);
    }
    forEach(callback, thisArg) {
      for (const [k, v] of listOf.get(this)) callback.call(thisArg, v, k, this);
    }
    *entries() {
      for (const [k, v] of listOf.get(this)) yield [k, v];
    }
    *keys() {
      for (const [k] of listOf.get(this)) yield k;
    }
    *values() {
      for (const [, v] of listOf.get(this)) yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return listOf
        .get(this)
        .map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`)
        .join("&");
    }
  }

  /** A URL's searchParams writes back into the URL's query. */
  function changed(params) {
    const url = ownerOf.get(params);
    if (!url) return;
    const text = params.toString();
    partsOf.get(url).query = text === "" ? null : text;
  }

  // --- URL ------------------------------------------------------------------------------------

  const SPECIAL = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21", "file:": "" };
  const partsOf = new WeakMap();
  const FORBIDDEN_HOST = /[\u0000\t\n\r #/:<>?@[\\\]^|%]/;

  function parseHost(text, special) {
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
    const number = (label) =>
      /^0x[0-9a-f]*$/.test(label)
        ? parseInt(label.slice(2) || "0", 16)
        : /^0[0-7]+$/.test(label)
          ? parseInt(label, 8)
          : /^(0|[1-9][0-9]*)$/.test(label)
            ? Number(label)
            : NaN;
    if (/^(0x[0-9a-f]*|[0-9]+)$/.test(labels[labels.length - 1])) {
      const numbers = labels.map(number);
      if (labels.length > 4 || numbers.some((n) => Number.isNaN(n))) throw invalid("bad IPv4 address");
      const last = numbers.pop();
      if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) throw invalid("bad IPv4 address");
      let value = last;
      numbers.forEach((n, i) => (value += n * 256 ** (3 - i)));
      return [Math.floor(value / 2 ** 24), Math.floor(value / 2 ** 16) % 256, Math.floor(value / 256) % 256, value % 256].join(".");
    }
    return host;
  }

  function normalisePath(segments, special) {
    const out = [];
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

  function splitTail(text) {
    const hash = text.indexOf("#");
    const fragment = hash < 0 ? null : text.slice(hash + 1);
    const rest = hash < 0 ? text : text.slice(0, hash);
    const mark = rest.indexOf("?");
    return { head: mark < 0 ? rest : rest.slice(0, mark), query: mark < 0 ? null : rest.slice(mark + 1), fragment };
  }

  function parse(input, base) {
    const text = String(input)
      .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "")
      .replace(/[\t\n\r]/g, "");
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text);
    const protocol = scheme ? `${scheme[1].toLowerCase()}:` : null;
    if (!protocol) {
      if (!base) throw invalid(`${JSON.stringify(String(input))} is not absolute and no base was given`);
      return resolve(text, base);
    }
    let rest = text.slice(scheme[0].length);
    const special = protocol in SPECIAL;
    if (special) rest = rest.replace(/\\/g, "/");
    if (special && base && base.protocol === protocol && !rest.startsWith("/")) return resolve(rest, base);
    const parts = { protocol, username: "", password: "", hostname: null, port: "", path: "", opaque: false, query: null, fragment: null };
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

  function authorityInto(parts, authority, special) {
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
      if (!/^[0-9]+$/.test(port[1]) || Number(port[1]) > 65535) throw invalid("bad port");
      parts.port = String(Number(port[1]));
      if (special && SPECIAL[parts.protocol] === parts.port) parts.port = "";
    }
    if (host === "" && special && parts.protocol !== "file:") throw invalid("empty host");
    parts.hostname = parseHost(host, special);
  }

  function resolve(text, base) {
    const special = base.protocol in SPECIAL;
    if (special) text = text.replace(/\\/g, "/");
    if (text.startsWith("//")) return parse(`${base.protocol}${text}`);
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

  function hrefOf(p) {
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

  class URL {
    constructor(input, base) {
      const baseParts = base === undefined ? undefined : base instanceof URL ? partsOf.get(base) : partsOf.get(new URL(base));
      partsOf.set(this, parse(input, baseParts));
      const params = new URLSearchParams(this.search);
      ownerOf.set(params, this);
      Object.defineProperty(this, "searchParams", { value: params, enumerable: false });
    }
    static canParse(input, base) {
      try {
        new URL(input, base);
        return true;
      } catch (_) {
        return false;
      }
    }
    get href() {
      return hrefOf(partsOf.get(this));
    }
    set href(value) {
      partsOf.set(this, parse(value));
      listOf.set(this.searchParams, parseForm(partsOf.get(this).query ?? ""));
    }
    get protocol() {
      return partsOf.get(this).protocol;
    }
    get username() {
      return partsOf.get(this).username;
    }
    get password() {
      return partsOf.get(this).password;
    }
    get host() {
      const p = partsOf.get(this);
      return (p.hostname ?? "") + (p.port ? `:${p.port}` : "");
    }
    get hostname() {
      return partsOf.get(this).hostname ?? "";
    }
    get port() {
      return partsOf.get(this).port;
    }
    get pathname() {
      return partsOf.get(this).path;
    }
    set pathname(value) {
      const p = partsOf.get(this);
      if (p.opaque) return;
      const text = String(value);
      p.path = normalisePath((text.startsWith("/") ? text : `/${text}`).split("/").slice(1), p.protocol in SPECIAL);
    }
    get search() {
      const q = partsOf.get(this).query;
      return q ? `?${q}` : "";
    }
    set search(value) {
      const p = partsOf.get(this);
      const text = String(value).replace(/^\?/, "");
      p.query = text === "" ? null : encodeSet(text, keepQuery(p.protocol in SPECIAL));
      listOf.set(this.searchParams, parseForm(p.query ?? ""));
    }
    get hash() {
      const f = partsOf.get(this).fragment;
      return f ? `#${f}` : "";
    }
    set hash(value) {
      const text = String(value).replace(/^#/, "");
      partsOf.get(this).fragment = text === "" ? null : encodeSet(text, keepFragment);
    }
    get origin() {
      const p = partsOf.get(this);
      return p.protocol in SPECIAL && p.protocol !== "file:" ? `${p.protocol}//${this.host}` : "null";
    }
    toString() {
      return this.href;
    }
    toJSON() {
      return this.href;
    }
  }

  // --- base64 and text ------------------------------------------------------------------------

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const characterError = (message) => Object.assign(new Error(message), { name: "InvalidCharacterError" });

  function btoa(data) {
    const text = String(data);
    let out = "";
    for (let i = 0; i < text.length; i += 3) {
      const codes = [text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)];
      if (codes.some((c) => c > 0xff)) throw characterError("Invalid character: btoa takes Latin-1 text only");
      const [a, b = NaN, c = NaN] = codes;
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18] + B64[(n >> 12) & 63] + (Number.isNaN(b) ? "=" : B64[(n >> 6) & 63]) + (Number.isNaN(c) ? "=" : B64[n & 63]);
    }
    return out;
  }

  function atob(data) {
    let text = String(data).replace(/[\t\n\f\r ]/g, "");
    if (text.length % 4 === 0) text = text.replace(/==?$/, "");
    if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw characterError("The string to be decoded is not correctly encoded.");
    let out = "";
    for (let i = 0; i < text.length; i += 4) {
      const chunk = text.slice(i, i + 4);
      let n = 0;
      for (let j = 0; j < 4; j++) n = (n << 6) | (j < chunk.length ? B64.indexOf(chunk[j]) : 0);
      out += String.fromCharCode(n >> 16);
      if (chunk.length > 2) out += String.fromCharCode((n >> 8) & 255);
      if (chunk.length > 3) out += String.fromCharCode(n & 255);
    }
    return out;
  }

  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(input = "") {
      return new Uint8Array(utf8(String(input)));
    }
  }

  const fatalOf = new WeakMap();
  class TextDecoder {
    constructor(label = "utf-8", options = {}) {
      if (!/^\s*(utf-?8|unicode-1-1-utf-8)\s*$/i.test(String(label))) throw new RangeError(`The "${label}" encoding is not supported here (only utf-8)`);
      fatalOf.set(this, { fatal: Boolean(options.fatal), ignoreBOM: Boolean(options.ignoreBOM) });
    }
    get encoding() {
      return "utf-8";
    }
    get fatal() {
      return fatalOf.get(this).fatal;
    }
    decode(input) {
      if (input === undefined) return "";
      const view = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
      const { fatal, ignoreBOM } = fatalOf.get(this);
      const text = fromUtf8(view, fatal);
      return !ignoreBOM && text.startsWith("\ufeff") ? text.slice(1) : text;
    }
  }

  define("URL", URL);
  define("URLSearchParams", URLSearchParams);
  define("atob", atob);
  define("btoa", btoa);
  define("TextEncoder", TextEncoder);
  define("TextDecoder", TextDecoder);
}
