// reduck/docusign.com/upload_document: upload a document as a new draft envelope.
// Nothing is sent to anyone: it only creates the draft.
// The simulated page's twin of examples/scripts (same contract and result): it renames and reads
// the file field with page.renameFile and page.fileInput, which only the simulated page has.
await builtins.goto("https://app.docusign.com/send/prepare", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][data-qa="upload-file-input"]';
await builtins.waitFor(field, "attached");
// `document` is required by the input schema, so the run never starts without it.
await builtins.uploadFile(field, "document");
page.renameFile(field, args.documentName);
const uploaded = page.fileInput(field);
const envelopeId = crypto.randomUUID();
return {
  status: "created",
  accountId: "sandbox-account",
  envelopeId,
  document: { name: uploaded.name, size: uploaded.size, type: uploaded.type, sha256: uploaded.sha256 },
  draftUrl: `https://app.docusign.com/prepare/${envelopeId}`,
};
