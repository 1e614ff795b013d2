// reduck/discord.com/post_message: post a text message, optionally with one file, in a Discord
// channel addressed by its URL, and return the message as Discord stored it (the attachment's name,
// size, type and a SHA-256 of the bytes the page received). dry_run prepares it without posting.
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

await builtins.goto(args.channelUrl, { waitUntil: "domcontentloaded" });
const composer = 'form#composer div[role="textbox"]';
await builtins.waitFor(composer, "visible");
const field = "form#composer input.file-input";
if (files.attachment) {
  await builtins.uploadFile(field, "attachment");
} else if (args.fileBase64) {
  // Bytes given inline: decoded in the page and dropped into the composer's file field.
  const ext = args.filename.includes(".") ? args.filename.split(".").pop().toLowerCase() : "";
  const type = args.mimeType ?? TYPES[ext] ?? "application/octet-stream";
  await page.locator(field).evaluate((input, file) => {
    const clean = file.base64.replace(/^data:[^,]*,/, "").replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(clean + "=".repeat((4 - (clean.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const dropped = new DataTransfer();
    dropped.items.add(new File([bytes], file.name, { type: file.type }));
    input.files = dropped.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }, { base64: args.fileBase64, name: args.filename, type });
}
if (withFile) await builtins.waitFor('form#composer [aria-label="Uploads"] li.upload', "attached");
if (message) await builtins.paste(composer, message);

if (args.dry_run) {
  return { sent: false, dry_run: true, channelId, messageId: null, timestamp: null, content: null, attachment: null };
}

const messages = page.locator('ol[data-list-id="chat-messages"] > li');
const before = await messages.count();
// Enter posts from the composer: focus it first (nothing was pasted into it when only a file goes).
await page.locator(composer).click();
await builtins.pressKey("Enter");
const posted = messages.nth(before);
await posted.or(page.getByRole("alert")).first().waitFor();
if (!(await posted.count())) throw new Error(`Discord refused the message: ${await page.getByRole("alert").textContent()}`);

const link = posted.locator("a.attachment").first();
const attachment = (await link.count())
  ? await link.evaluate((a) => ({
      id: a.dataset.attachmentId,
      filename: a.dataset.filename,
      size: Number(a.dataset.size),
      content_type: a.dataset.contentType,
      sha256: a.dataset.sha256,
      url: a.href,
    }))
  : null;
return {
  sent: true,
  dry_run: false,
  channelId,
  messageId: await posted.getAttribute("data-message-id"),
  timestamp: await posted.locator("time").getAttribute("datetime"),
  content: await posted.locator(".content").textContent(),
  attachment,
};
