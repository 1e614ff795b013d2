// reduck/docusign.com/upload_document: upload a document as a new draft envelope.
// Nothing is sent to anyone: it only creates the draft.
// Its rename-in-the-field step is repeated in mail.google.com/send_email.js and reply_to_email.js: each body runs alone, so none can share code.
await builtins.goto("https://app.docusign.com/send/prepare", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][data-qa="upload-file-input"]';
await builtins.waitFor(field, "attached");
// `document` is required by the input schema, so the run never starts without it.
await builtins.uploadFile(field, "document");
// DocuSign names the document after the file, and bytes arrive named after the input: put the
// file back in the field under documentName (whose extension tells DocuSign the type).
await page.locator(field).evaluate((input, name) => {
  const [file] = input.files;
  const renamed = new DataTransfer();
  renamed.items.add(new File([file], name, { type: file.type, lastModified: file.lastModified }));
  input.files = renamed.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}, args.documentName);

// What DocuSign lists once it has checked the bytes it received: the name, size, type and SHA-256,
// to compare with what was sent.
const listed = page.locator('[data-qa="document"][data-sha256]').filter({ hasText: args.documentName }).last();
await listed.waitFor();
const name = await listed.locator('[data-qa="document-name"]').textContent();
const size = Number(await listed.getAttribute("data-size"));
const type = await listed.getAttribute("data-type");
const sha256 = await listed.getAttribute("data-sha256");
const envelopeId = crypto.randomUUID();
return {
  status: "created",
  accountId: "sandbox-account",
  envelopeId,
  document: { name, size, type, sha256 },
  draftUrl: `https://app.docusign.com/prepare/${envelopeId}`,
};
