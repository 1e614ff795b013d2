// reduck/docusign.com/upload_document: upload a document as a new draft envelope.
// Nothing is sent to anyone: it only creates the draft.
// The simulated page's twin of examples/scripts/docusign.com/upload_document.js (same contract and result): it renames and reads
// the file field with page.renameFile and page.fileInput, which only the simulated page has, and
// gives the type DocuSign's page reads from the name's extension.
// TYPES twins the table of DocuSign's simulated page (test/server/runtime/browser/web/docusign.ts): this body runs alone and cannot import it.
const TYPES = {
  pdf: "application/pdf", txt: "text/plain", csv: "text/csv", html: "text/html", rtf: "application/rtf",
  doc: "application/msword", docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint", pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", tif: "image/tiff", tiff: "image/tiff",
};
await builtins.goto("https://app.docusign.com/send/prepare", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][data-qa="upload-file-input"]';
await builtins.waitFor(field, "attached");
// `document` is required by the input schema, so the run never starts without it.
await builtins.uploadFile(field, "document");
page.renameFile(field, args.documentName);
const uploaded = page.fileInput(field);
const type = (uploaded.name.includes(".") && TYPES[uploaded.name.split(".").pop().toLowerCase()]) || uploaded.type || "application/octet-stream";
const envelopeId = crypto.randomUUID();
return {
  status: "created",
  accountId: "sandbox-account",
  envelopeId,
  document: { name: uploaded.name, size: uploaded.size, type, sha256: uploaded.sha256 },
  draftUrl: `https://app.docusign.com/prepare/${envelopeId}`,
};
