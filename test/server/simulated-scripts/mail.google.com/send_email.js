// reduck/mail.google.com/send_email: send an email from the signed-in Gmail account,
// with an optional single attachment.
// The simulated page's twin of examples/scripts (same contract and result): it renames and reads
// the file field with page.renameFile and page.fileInput, which only the simulated page has.
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const to = list(args.to);
const cc = list(args.cc);
const bcc = list(args.bcc);
if (to.length === 0) throw new Error("to needs at least one address");

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#inbox?compose=new`, { waitUntil: "domcontentloaded" });
await builtins.waitFor('div[role="dialog"]', "attached");
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

await builtins.pressKey("Control+Enter");
return { sent: true, to, cc, bcc, subject: args.subject, ...(attachment ? { attachment } : {}) };
