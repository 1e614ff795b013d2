// reduck/mail.google.com/send_email: send an email from the signed-in Gmail account,
// with an optional single attachment; with sendAt, schedule it instead (Gmail's "Schedule send").
// Its attachment step (rename in the field, read the chip) is repeated in reply_to_email.js and, the rename, in docusign.com/upload_document.js: each body runs alone, so none can share code.
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const to = list(args.to);
const cc = list(args.cc);
const bcc = list(args.bcc);
if (to.length === 0) throw new Error("to needs at least one address");
// sendAt is a local date and time with no offset, read in the browser's time zone (as Gmail's picker).
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
if (args.sendAt !== undefined) {
  const parts = LOCAL_TIME.exec(args.sendAt);
  if (!parts) throw new Error(`sendAt must be a local date and time with no offset, like 2026-10-06T09:00 (got ${JSON.stringify(args.sendAt)})`);
  // A date parser rolls 2026-02-30 over to March 2: each field must come back as given.
  const [year, month, day, hour, minute] = parts.slice(1).map(Number);
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day || utc.getUTCHours() !== hour || utc.getUTCMinutes() !== minute) {
    throw new Error(`sendAt ${args.sendAt} is not a date and time that exists`);
  }
}

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#inbox?compose=new`, { waitUntil: "domcontentloaded" });
const compose = 'div[role="dialog"]';
await builtins.waitFor(compose, "attached");
if (args.sendAt !== undefined) {
  // Checked before anything is composed, in the browser's clock and time zone.
  const ahead = await page.evaluate((at) => new Date(at).getTime() - Date.now(), args.sendAt);
  if (ahead === null || Number.isNaN(ahead)) throw new Error(`sendAt ${args.sendAt} is not a date and time that exists`);
  if (ahead <= 0) throw new Error(`sendAt ${args.sendAt} is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent`);
  if (ahead < 60_000) throw new Error(`sendAt ${args.sendAt} is less than a minute ahead: give a time at least a few minutes ahead; nothing was sent`);
}
await builtins.paste(`${compose} input[aria-label="To recipients"]`, to.join(", "));
if (cc.length) await builtins.paste(`${compose} input[aria-label="Cc recipients"]`, cc.join(", "));
if (bcc.length) await builtins.paste(`${compose} input[aria-label="Bcc recipients"]`, bcc.join(", "));
await builtins.paste(`${compose} input[name="subjectbox"]`, args.subject);
if (args.body) await builtins.paste(`${compose} div[aria-label="Message Body"]`, args.body);

// The file input is optional: check that a file was bound before uploading it.
const field = `${compose} input[type="file"][name="Filedata"]`;
let attachment;
if (files.attachment) {
  await builtins.uploadFile(field, "attachment");
  // Bytes arrive named after the input; a name argument gives the recipient a real name. Gmail
  // attaches what its file field holds, so put the file back in it under the new name, as
  // dropping a renamed copy would.
  if (args.attachmentName) {
    await page.locator(field).evaluate((input, name) => {
      const [file] = input.files;
      const renamed = new DataTransfer();
      renamed.items.add(new File([file], name, { type: file.type, lastModified: file.lastModified }));
      input.files = renamed.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }, args.attachmentName);
  }
  // The name the recipient sees: the one on the compose window's attachment chip.
  const chip = page.locator(`${compose} [role="listitem"][aria-label^="Attachment: "]`).last();
  attachment = (await chip.getAttribute("aria-label")).slice("Attachment: ".length);
}

const attached = attachment ? { attachment } : {};
if (args.sendAt === undefined) {
  await builtins.pressKey("Control+Enter");
  await page.getByRole("alert").filter({ hasText: "Message sent" }).waitFor();
  return { sent: true, to, cc, bcc, subject: args.subject, ...attached };
}

// Schedule send: the arrow beside Send, then the date and time picker.
await page.locator(`${compose} button[aria-label="More send options"]`).click();
await page.getByRole("menuitem", { name: "Schedule send" }).click();
const picker = page.locator('[role="dialog"][aria-label="Pick date & time"]');
await picker.locator('input[type="datetime-local"]').fill(args.sendAt);
await picker.getByRole("button", { name: "Schedule send" }).click();
const outcome = page.getByRole("alert").filter({ hasText: "Send scheduled" }).or(picker.getByRole("alertdialog"));
await outcome.first().waitFor();
if (await picker.getByRole("alertdialog").count()) throw new Error(`Gmail refused sendAt ${args.sendAt}: ${await picker.getByRole("alertdialog").textContent()}`);

// Confirm it waits in the Scheduled folder, and read its thread id and date as Gmail lists them.
await page.getByRole("link", { name: "Scheduled" }).click();
await builtins.waitFor('table[aria-label="Scheduled"]', "attached");
const row = page.locator('table[aria-label="Scheduled"] tr[role="row"]').filter({ hasText: args.subject }).last();
const foundInScheduled = (await row.count()) > 0;
return {
  sent: false,
  scheduled: true,
  to,
  cc,
  bcc,
  subject: args.subject,
  ...attached,
  threadId: foundInScheduled ? await row.getAttribute("data-legacy-thread-id") : null,
  scheduledFor: foundInScheduled ? (await row.locator("td.when").textContent()).trim() : null,
  foundInScheduled,
};
