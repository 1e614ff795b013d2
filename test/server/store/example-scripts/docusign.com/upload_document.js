// reduck/docusign.com/upload_document: upload a document as a new draft envelope.
// Nothing is sent to anyone: it only creates the draft.
// Twin of test/server/store/simulated-scripts/docusign.com/upload_document.js, the same script for the simulated page (which has no page.locator): change both together. Its rename-in-the-field step is repeated in mail.google.com/send_email.js and reply_to_email.js: each body runs alone, so none can share code.
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

// What DocuSign lists, and a checksum of the bytes the browser holds, to compare with what was sent.
const listed = page.locator('[data-qa="document"]').last();
const name = await listed.locator('[data-qa="document-name"]').textContent();
const size = Number(await listed.getAttribute("data-size"));
const type = await listed.getAttribute("data-type");
const sha256 = await page.locator(field).evaluate(async (input) => {
  const digest = await crypto.subtle.digest("SHA-256", await input.files[0].arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
});
const envelopeId = crypto.randomUUID();
return {
  status: "created",
  accountId: "sandbox-account",
  envelopeId,
  document: { name, size, type, sha256 },
  draftUrl: `https://app.docusign.com/prepare/${envelopeId}`,
};
