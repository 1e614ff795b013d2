// atob and btoa: base64 over "binary strings" (one character per byte), as browsers have them.

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const characterError = (message: string) => Object.assign(new Error(message), { name: "InvalidCharacterError" });

export function btoa(data: unknown): string {
  const text = String(data);
  let out = "";
  for (let i = 0; i < text.length; i += 3) {
    const codes = [text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)];
    if (codes.some((c) => c > 0xff)) throw characterError("Invalid character: btoa takes Latin-1 text only");
    const [a, b = NaN, c = NaN] = codes;
    const n = (a! << 16) | ((b || 0) << 8) | (c || 0);
    out += B64[n >> 18]! + B64[(n >> 12) & 63] + (Number.isNaN(b) ? "=" : B64[(n >> 6) & 63]) + (Number.isNaN(c) ? "=" : B64[n & 63]);
  }
  return out;
}

export function atob(data: unknown): string {
  let text = String(data).replace(/[\t\n\f\r ]/g, "");
  if (text.length % 4 === 0) text = text.replace(/==?$/, "");
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw characterError("The string to be decoded is not correctly encoded.");
  let out = "";
  for (let i = 0; i < text.length; i += 4) {
    const chunk = text.slice(i, i + 4);
    let n = 0;
    for (let j = 0; j < 4; j++) n = (n << 6) | (j < chunk.length ? B64.indexOf(chunk[j]!) : 0);
    out += String.fromCharCode(n >> 16);
    if (chunk.length > 2) out += String.fromCharCode((n >> 8) & 255);
    if (chunk.length > 3) out += String.fromCharCode(n & 255);
  }
  return out;
}
