// TextEncoder and TextDecoder, UTF-8 only (the one encoding scripts use).
import { fromUtf8, utf8 } from "./encoding.js";

export class TextEncoder {
  get encoding(): string {
    return "utf-8";
  }
  encode(input: unknown = ""): Uint8Array {
    return new Uint8Array(utf8(String(input)));
  }
}

const fatalOf = new WeakMap<TextDecoder, { fatal: boolean; ignoreBOM: boolean }>();

export class TextDecoder {
  constructor(label: unknown = "utf-8", options: { fatal?: unknown; ignoreBOM?: unknown } = {}) {
    if (!/^\s*(utf-?8|unicode-1-1-utf-8)\s*$/i.test(String(label))) throw new RangeError(`The "${label}" encoding is not supported here (only utf-8)`);
    fatalOf.set(this, { fatal: Boolean(options.fatal), ignoreBOM: Boolean(options.ignoreBOM) });
  }
  get encoding(): string {
    return "utf-8";
  }
  get fatal(): boolean {
    return fatalOf.get(this)!.fatal;
  }
  decode(input?: unknown): string {
    if (input === undefined) return "";
    const view = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input as ArrayBuffer);
    const { fatal, ignoreBOM } = fatalOf.get(this)!;
    const text = fromUtf8(view, fatal);
    return !ignoreBOM && text.startsWith("\ufeff") ? text.slice(1) : text;
  }
}
