// reduck/mail.google.com/send_email: send an email from the signed-in Gmail account,
// with an optional single attachment.
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const to = list(args.to);
const cc = list(args.cc);
const bcc = list(args.bcc);
if (to.length === 0) throw new Error("to needs at least one address");

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#inbox?compose=new`, { waitUntil: "domcontentloaded" });
const compose = 'div[role="dialog"]';
await builtins.waitFor(compose, "attached");
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

await builtins.pressKey("Control+Enter");
await page.getByRole("alert").filter({ hasText: "Message sent" }).waitFor();
return { sent: true, to, cc, bcc, subject: args.subject, ...(attachment ? { attachment } : {}) };
