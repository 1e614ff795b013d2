// UTF-8 and percent-encoding, as the URL and Encoding standards define them: what URL,
// URLSearchParams, TextEncoder and TextDecoder are made of.

/** The UTF-8 bytes of a string; a lone surrogate becomes U+FFFD. */
export function utf8(text: string): number[] {
  const bytes: number[] = [];
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

/** Text from UTF-8 bytes: each invalid sequence becomes U+FFFD, or throws a TypeError when `fatal`. */
export function fromUtf8(bytes: ArrayLike<number>, fatal: boolean): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
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

/** Whether a code point (below 0x80) stays as it is in a percent-encoded part. */
export type Keep = (code: number, ch: string) => boolean;

const HEX = "0123456789ABCDEF";
/** Percent-encodes what `keep(code)` does not keep, byte by byte in UTF-8. */
export function encodeSet(text: string, keep: Keep): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80 && keep(code, ch)) out += ch;
    else for (const byte of utf8(ch)) out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}
const controlOrSpace = (c: number) => c <= 0x20 || c === 0x7f;
export const keepFragment: Keep = (c, ch) => !controlOrSpace(c) && !'"<>`'.includes(ch);
export const keepQuery =
  (special: boolean): Keep =>
  (c, ch) =>
    !controlOrSpace(c) && !'"#<>'.includes(ch) && !(special && ch === "'");
export const keepPath: Keep = (c, ch) => !controlOrSpace(c) && !'"#<>?`{}'.includes(ch);
export const keepUserinfo: Keep = (c, ch) => keepPath(c, ch) && !"/:;=@[\\]^|".includes(ch);
export const keepOpaque: Keep = (c) => c >= 0x20 && c !== 0x7f;

/** The bytes a percent-encoded string stands for (a `%` not followed by two hex digits stays). */
export function percentDecodeBytes(text: string): number[] {
  const bytes: number[] = [];
  const raw = utf8(text);
  for (let i = 0; i < raw.length; i++) {
    const hex = String.fromCharCode(raw[i + 1] ?? 0, raw[i + 2] ?? 0);
    if (raw[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(raw[i]!);
  }
  return bytes;
}
