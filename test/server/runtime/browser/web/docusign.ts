// app.docusign.com/send/prepare: the first screen of a new envelope, with DocuSign's file field
// and the documents it holds (name, size, the type DocuSign reads from the name's extension, and a
// SHA-256 of the bytes the page received).
import { htmlPage, type WebResponse } from "./html.js";

const BODY = `
<main>
  <h1>Add documents</h1>
  <label>Upload <input type="file" data-qa="upload-file-input" multiple></label>
  <ul data-qa="document-list" aria-label="Documents"></ul>
</main>
`;

const SCRIPT = String.raw`
const TYPES = {
  pdf: "application/pdf", txt: "text/plain", csv: "text/csv", html: "text/html", rtf: "application/rtf",
  doc: "application/msword", docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint", pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", tif: "image/tiff", tiff: "image/tiff",
};
const typeOf = (file) => (file.name.includes(".") && TYPES[file.name.split(".").pop().toLowerCase()]) || file.type || "application/octet-stream";
const field = document.querySelector('input[data-qa="upload-file-input"]');
field.addEventListener("change", () => {
  const list = document.querySelector('[data-qa="document-list"]');
  list.replaceChildren(...[...field.files].map((file) => {
    const item = document.createElement("li");
    item.dataset.qa = "document";
    item.dataset.size = String(file.size);
    item.dataset.type = typeOf(file);
    item.innerHTML = '<span data-qa="document-name"></span> — <span data-qa="document-size"></span>';
    item.querySelector('[data-qa="document-name"]').textContent = file.name;
    item.querySelector('[data-qa="document-size"]').textContent = file.size + " bytes";
    // DocuSign checks what it received: its SHA-256, set once hashed.
    sha256Of(file).then((sha256) => { item.dataset.sha256 = sha256; });
    return item;
  }));
});
`;

export function docusign(url: URL): WebResponse | null {
  if (url.hostname !== "app.docusign.com" || !url.pathname.startsWith("/send/prepare")) return null;
  return htmlPage({ title: "Add documents | DocuSign", site: "DocuSign", body: BODY, script: SCRIPT });
}
