// reduck/mail.google.com/send_email: send an email from the signed-in Gmail account,
// with an optional single attachment; with sendAt, schedule it instead (Gmail's "Schedule send").
// The simulated page's twin of examples/scripts/mail.google.com/send_email.js (same contract and result): it renames and reads
// the file field with page.renameFile and page.fileInput, which only the simulated page has.
// Its recipients and sendAt checks are repeated in reply_to_email.js here: each body runs alone, so they cannot share code.
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const to = list(args.to);
const cc = list(args.cc);
const bcc = list(args.bcc);
if (to.length === 0) throw new Error("to needs at least one address");
// sendAt is a local date and time with no offset, read in the browser's time zone (here this
// machine's, where the simulated page runs).
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
await builtins.waitFor('div[role="dialog"]', "attached");
const sendAt = args.sendAt === undefined ? null : new Date(args.sendAt);
if (sendAt) {
  const ahead = sendAt.getTime() - Date.now();
  if (Number.isNaN(ahead)) throw new Error(`sendAt ${args.sendAt} is not a date and time that exists`);
  if (ahead <= 0) throw new Error(`sendAt ${args.sendAt} is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent`);
  if (ahead < 60_000) throw new Error(`sendAt ${args.sendAt} is less than a minute ahead: give a time at least a few minutes ahead; nothing was sent`);
}
await builtins.paste('input[aria-label="To recipients"]', to.join(", "));
if (cc.length) await builtins.paste('input[aria-label="Cc recipients"]', cc.join(", "));
if (bcc.length) await builtins.paste('input[aria-label="Bcc recipients"]', bcc.join(", "));
await builtins.paste('input[name="subjectbox"]', args.subject);
if (args.body) await builtins.paste('div[aria-label="Message Body"]', args.body);

// The file input is optional: check that a file was bound before uploading it.
const field = 'input[type="file"][name="Filedata"]';
let attachment;
if (files.attachment) {
  await builtins.uploadFile(field, "attachment");
  // Bytes arrive named after the input; a name argument gives the recipient a real name.
  if (args.attachmentName) page.renameFile(field, args.attachmentName);
  attachment = page.fileInput(field).name;
}

const attached = attachment ? { attachment } : {};
if (!sendAt) {
  await builtins.pressKey("Control+Enter");
  return { sent: true, to, cc, bcc, subject: args.subject, ...attached };
}

// Schedule send, then the Scheduled folder, where Gmail's page lists it with a thread id and the
// date as it displays it (made here the same way, since the simulated page keeps no folder).
await builtins.waitFor('button[aria-label="More send options"]');
await builtins.paste('input[type="datetime-local"][aria-label="Date and time"]', args.sendAt);
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#scheduled`);
await builtins.waitFor('table[aria-label="Scheduled"]', "attached");
const threadId = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
const scheduledFor = sendAt.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
return { sent: false, scheduled: true, to, cc, bcc, subject: args.subject, ...attached, threadId, scheduledFor, foundInScheduled: true };
