// reduck/discord.com/post_message: post a text message, optionally with one file, in a Discord
// channel addressed by its URL, and return the message as Discord stored it.
// The simulated page's twin of examples/scripts/discord.com/post_message.js (same contract and result): the simulated page
// keeps no message list, so the message is made here as Discord's page makes it (a snowflake id,
// the trimmed text, the attachment's name, size, type and SHA-256 from the file field, or from the
// decoded fileBase64, hashed below since this page has no crypto.subtle).
const LIMIT = 2000;
const BASE64_LIMIT = 380 * 1024;
const TYPES = { txt: "text/plain", csv: "text/csv", json: "application/json", pdf: "application/pdf", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", mp4: "video/mp4", zip: "application/zip" };

const channel = /^https:\/\/(?:ptb\.|canary\.)?discord\.com\/channels\/(\d+|@me)\/(\d+)\/?$/.exec(args.channelUrl ?? "");
if (!channel) throw new Error(`channelUrl must be a channel's address, https://discord.com/channels/<guildId>/<channelId> (got ${JSON.stringify(args.channelUrl)})`);
const channelId = channel[2];
const message = (args.message ?? "").trim();
if (files.attachment && args.fileBase64) throw new Error("give the file once: the attachment input or fileBase64, not both");
if (args.fileBase64 && !args.filename) throw new Error("filename is required with fileBase64 (the name the file is posted under, e.g. report.csv)");
if (args.fileBase64 && args.fileBase64.length > BASE64_LIMIT) throw new Error(`fileBase64 is ${args.fileBase64.length} characters, over the ~${BASE64_LIMIT} this route takes: bind the file to the attachment input instead`);
const withFile = Boolean(files.attachment || args.fileBase64);
if (!message && !withFile) throw new Error("an empty message cannot be posted: give message (1 to 2000 characters), a file, or both");
if (message.length > LIMIT) throw new Error(`message is ${message.length} characters; Discord takes at most ${LIMIT}: shorten it or split it into several messages`);

/** Hex SHA-256 of bytes (FIPS 180-4). */
function sha256(bytes) {
  const K = [];
  const H = [];
  const frac = (x) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
  for (let n = 2, found = 0; found < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
    if (!prime) continue;
    if (found < 8) H.push(frac(Math.sqrt(n)));
    K.push(frac(Math.cbrt(n)));
    found++;
  }
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 2 ** 29));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((v, i) => (H[i] = (H[i] + v) >>> 0));
  }
  return H.map((v) => v.toString(16).padStart(8, "0")).join("");
}

await builtins.goto(args.channelUrl, { waitUntil: "domcontentloaded" });
const composer = 'form#composer div[role="textbox"]';
await builtins.waitFor(composer, "visible");
const field = "form#composer input.file-input";
let file = null;
if (files.attachment) {
  await builtins.uploadFile(field, "attachment");
  file = page.fileInput(field);
} else if (args.fileBase64) {
  const clean = args.fileBase64.replace(/^data:[^,]*,/, "").replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(clean + "=".repeat((4 - (clean.length % 4)) % 4)), (c) => c.charCodeAt(0));
  const ext = args.filename.includes(".") ? args.filename.split(".").pop().toLowerCase() : "";
  file = { name: args.filename, size: bytes.length, type: args.mimeType ?? TYPES[ext] ?? "application/octet-stream", sha256: sha256(bytes) };
}
if (message) await builtins.paste(composer, message);

if (args.dry_run) {
  return { sent: false, dry_run: true, channelId, messageId: null, timestamp: null, content: null, attachment: null };
}

await builtins.pressKey("Enter");
const at = Date.now();
const messageId = ((BigInt(at) - 1420070400000n) << 22n).toString();
const attachment = file
  ? {
      id: (BigInt(messageId) + 1n).toString(),
      filename: file.name,
      size: file.size,
      content_type: file.type || "application/octet-stream",
      sha256: file.sha256,
      url: `https://cdn.discordapp.com/attachments/${channelId}/${BigInt(messageId) + 1n}/${encodeURIComponent(file.name)}`,
    }
  : null;
return { sent: true, dry_run: false, channelId, messageId, timestamp: new Date(at).toISOString(), content: message, attachment };
