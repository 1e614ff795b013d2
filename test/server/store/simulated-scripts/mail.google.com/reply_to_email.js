// reduck/mail.google.com/reply_to_email: reply (or reply all) inside an existing Gmail conversation,
// given its thread id or its link, optionally with Cc recipients and one attachment; with sendAt,
// schedule the reply instead (Gmail's "Schedule send").
// The simulated page's twin of examples/scripts/mail.google.com/reply_to_email.js (same contract and result): the simulated page
// keeps no conversations, so the one Gmail's page holds is named here (its id, subject and Cc), and
// the Scheduled folder's date is written as that page writes it.
// Its recipients and sendAt checks are repeated in send_email.js here: each body runs alone, so they cannot share code.
const CONVERSATIONS = { "19f2817451c27480": { subject: "Invoice for October", cc: ["accounts@example.com"] } };
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const cc = list(args.cc);
const replyAll = args.replyAll === true;
if (!args.threadId && !args.threadUrl) throw new Error("give threadId (e.g. 19f2817451c27480) or threadUrl (the conversation's Gmail address)");
if (args.threadUrl && new URL(args.threadUrl).hostname !== "mail.google.com") throw new Error(`threadUrl must be a Gmail address on mail.google.com (got ${JSON.stringify(args.threadUrl)})`);
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
if (args.sendAt !== undefined) {
  const parts = LOCAL_TIME.exec(args.sendAt);
  if (!parts) throw new Error(`sendAt must be a local date and time with no offset, like 2026-10-09T09:00 (got ${JSON.stringify(args.sendAt)})`);
  const [year, month, day, hour, minute] = parts.slice(1).map(Number);
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day || utc.getUTCHours() !== hour || utc.getUTCMinutes() !== minute) {
    throw new Error(`sendAt ${args.sendAt} is not a date and time that exists`);
  }
}

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
const url = args.threadUrl ?? `https://mail.google.com/mail/u/0/${account}#inbox/${encodeURIComponent(args.threadId)}`;
await builtins.goto(url, { waitUntil: "domcontentloaded" });
const threadId = args.threadId ?? decodeURIComponent(/#[^/]+\/([^/?]+)$/.exec(url)?.[1] ?? "");
const conversation = Object.hasOwn(CONVERSATIONS, threadId) ? CONVERSATIONS[threadId] : null;
if (!conversation) throw new Error(`no conversation ${args.threadId ?? args.threadUrl} in this Gmail account: check the id with search_emails`);
const sendAt = args.sendAt === undefined ? null : new Date(args.sendAt);
if (sendAt) {
  const ahead = sendAt.getTime() - Date.now();
  if (ahead <= 0) throw new Error(`sendAt ${args.sendAt} is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent`);
  if (ahead < 60_000) throw new Error(`sendAt ${args.sendAt} is less than a minute ahead: give a time at least a few minutes ahead; nothing was sent`);
}

const reply = 'article[aria-label="Conversation"] [role="region"][aria-label="Reply"]';
await builtins.waitFor(reply, "visible");
if (cc.length) await builtins.paste(`${reply} input[aria-label="Cc recipients"]`, cc.join(", "));
await builtins.paste(`${reply} div[aria-label="Message Body"]`, args.body);
const field = `${reply} input[type="file"][name="Filedata"]`;
let attachment;
if (files.attachment) {
  await builtins.uploadFile(field, "attachment");
  if (args.attachmentName) page.renameFile(field, args.attachmentName);
  attachment = page.fileInput(field).name;
}
const attached = attachment ? { attachment } : {};
const sentCc = [...(replyAll ? conversation.cc : []), ...cc];
const subject = conversation.subject;

if (!sendAt) {
  await builtins.pressKey("Control+Enter");
  return { sent: true, replyAll, threadId, subject, cc: sentCc, ...attached };
}
await builtins.paste('input[type="datetime-local"][aria-label="Date and time"]', args.sendAt);
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#scheduled`);
await builtins.waitFor('table[aria-label="Scheduled"]', "attached");
const scheduledFor = sendAt.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
return { sent: false, scheduled: true, replyAll, threadId, subject, cc: sentCc, ...attached, scheduledFor, foundInScheduled: true };
