// reduck/mail.google.com/reply_to_email: reply (or reply all) inside an existing Gmail conversation,
// given its thread id or its link, optionally with Cc recipients and one attachment; with sendAt,
// schedule the reply instead (Gmail's "Schedule send").
// Its attachment step (rename in the field, read the chip) is repeated in send_email.js and, the rename, in docusign.com/upload_document.js: each body runs alone, so none can share code.
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const cc = list(args.cc);
const replyAll = args.replyAll === true;
if (!args.threadId && !args.threadUrl) throw new Error("give threadId (e.g. 19f2817451c27480) or threadUrl (the conversation's Gmail address)");
if (args.threadUrl && new URL(args.threadUrl).hostname !== "mail.google.com") throw new Error(`threadUrl must be a Gmail address on mail.google.com (got ${JSON.stringify(args.threadUrl)})`);
// sendAt is a local date and time with no offset, read in the browser's time zone (as Gmail's picker).
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
if (args.sendAt !== undefined) {
  const parts = LOCAL_TIME.exec(args.sendAt);
  if (!parts) throw new Error(`sendAt must be a local date and time with no offset, like 2026-10-09T09:00 (got ${JSON.stringify(args.sendAt)})`);
  // A date parser rolls 2026-02-30 over to March 2: each field must come back as given.
  const [year, month, day, hour, minute] = parts.slice(1).map(Number);
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day || utc.getUTCHours() !== hour || utc.getUTCMinutes() !== minute) {
    throw new Error(`sendAt ${args.sendAt} is not a date and time that exists`);
  }
}

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
await builtins.goto(args.threadUrl ?? `https://mail.google.com/mail/u/0/${account}#inbox/${encodeURIComponent(args.threadId)}`, { waitUntil: "domcontentloaded" });
const conversation = page.locator('article[aria-label="Conversation"]');
const missing = page.locator("#mailbox .not-found");
await conversation.or(missing).first().waitFor();
if (await missing.count()) throw new Error(`no conversation ${args.threadId ?? args.threadUrl} in this Gmail account: a thread id is the part after #inbox/ in the conversation's Gmail address`);
if (args.sendAt !== undefined) {
  // Checked before anything is written, in the browser's clock and time zone.
  const ahead = await page.evaluate((at) => new Date(at).getTime() - Date.now(), args.sendAt);
  if (ahead <= 0) throw new Error(`sendAt ${args.sendAt} is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent`);
  if (ahead < 60_000) throw new Error(`sendAt ${args.sendAt} is less than a minute ahead: give a time at least a few minutes ahead; nothing was sent`);
}
const threadId = await conversation.getAttribute("data-legacy-thread-id");
const subject = (await conversation.locator("h2.subject").textContent()).trim();

await conversation.locator(`button[aria-label="${replyAll ? "Reply all" : "Reply"}"]`).click();
const reply = 'article[aria-label="Conversation"] [role="region"][aria-label="Reply"]';
await builtins.waitFor(reply, "visible");
if (cc.length) await builtins.paste(`${reply} input[aria-label="Cc recipients"]`, cc.join(", "));
await builtins.paste(`${reply} div[aria-label="Message Body"]`, args.body);

const field = `${reply} input[type="file"][name="Filedata"]`;
let attachment;
if (files.attachment) {
  await builtins.uploadFile(field, "attachment");
  // Bytes arrive named after the input; a name argument gives the recipient a real name.
  if (args.attachmentName) {
    await page.locator(field).evaluate((input, name) => {
      const [file] = input.files;
      const renamed = new DataTransfer();
      renamed.items.add(new File([file], name, { type: file.type, lastModified: file.lastModified }));
      input.files = renamed.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }, args.attachmentName);
  }
  const chip = page.locator(`${reply} [role="listitem"][aria-label^="Attachment: "]`).last();
  attachment = (await chip.getAttribute("aria-label")).slice("Attachment: ".length);
}
const attached = attachment ? { attachment } : {};

if (args.sendAt === undefined) {
  const messages = conversation.locator('[aria-label="Messages"] > [role="listitem"]');
  const before = await messages.count();
  await builtins.pressKey("Control+Enter");
  const sent = messages.nth(before);
  await sent.waitFor();
  // The Cc line the reply went out with: Reply all keeps the conversation's, plus any given.
  const sentCc = ((await sent.getAttribute("data-cc")) || "").split(", ").filter(Boolean);
  return { sent: true, replyAll, threadId, subject, cc: sentCc, ...attached };
}

await page.locator(`${reply} button[aria-label="More send options"]`).click();
await page.getByRole("menuitem", { name: "Schedule send" }).click();
const picker = page.locator('[role="dialog"][aria-label="Pick date & time"]');
await picker.locator('input[type="datetime-local"]').fill(args.sendAt);
await picker.getByRole("button", { name: "Schedule send" }).click();
const outcome = page.getByRole("alert").filter({ hasText: "Send scheduled" }).or(picker.getByRole("alertdialog"));
await outcome.first().waitFor();
if (await picker.getByRole("alertdialog").count()) throw new Error(`Gmail refused sendAt ${args.sendAt}: ${await picker.getByRole("alertdialog").textContent()}`);

// Confirm it waits in the Scheduled folder, under this conversation, and read the date Gmail shows.
await page.getByRole("link", { name: "Scheduled" }).click();
await builtins.waitFor('table[aria-label="Scheduled"]', "attached");
const row = page.locator(`table[aria-label="Scheduled"] tr[role="row"][data-legacy-thread-id="${threadId}"]`).last();
const foundInScheduled = (await row.count()) > 0;
return {
  sent: false,
  scheduled: true,
  replyAll,
  threadId,
  subject,
  cc: foundInScheduled ? ((await row.getAttribute("data-cc")) || "").split(", ").filter(Boolean) : cc,
  ...attached,
  scheduledFor: foundInScheduled ? (await row.locator("td.when").textContent()).trim() : null,
  foundInScheduled,
};
