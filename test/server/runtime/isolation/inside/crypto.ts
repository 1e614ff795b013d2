// Web Crypto's two synchronous calls, as scripts use them (crypto.randomUUID() in the catalogue's
// examples), with random bytes from the host.
import { ErrorType, TypeErrorType } from "./intrinsics.js";
import { random } from "./host.js";

function randomBytes(count: number): Uint8Array {
  let hex: unknown;
  try {
    hex = random(count);
  } catch (_) {
    hex = undefined;
  }
  if (typeof hex !== "string" || hex.length !== 2 * count) throw new ErrorType("crypto: no random bytes available");
  const bytes = new Uint8Array(count);
  for (let i = 0; i < count; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const crypto = {
  getRandomValues<T extends ArrayBufferView>(array: T): T {
    if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView) {
      throw new TypeErrorType("crypto.getRandomValues: give an integer typed array");
    }
    if (array.byteLength > 65536) throw new RangeError("crypto.getRandomValues: at most 65536 bytes at a time");
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength));
    return array;
  },
  randomUUID(): string {
    const b = randomBytes(16);
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    let hex = "";
    for (let i = 0; i < 16; i++) hex += (b[i]! < 16 ? "0" : "") + b[i]!.toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  },
};

/** Puts `crypto` on the context's globalThis. */
export function installCrypto(): void {
  Object.defineProperty(globalThis, "crypto", { value: crypto, writable: true, configurable: true });
}
