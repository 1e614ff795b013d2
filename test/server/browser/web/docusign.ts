// app.docusign.com/send/prepare: the first screen of a new envelope, with DocuSign's file field
// and the documents it holds (name and size), as the real page lists them after an upload.
import { htmlPage, type WebResponse } from "./html.js";

const BODY = `
<main>
  <h1>Add documents</h1>
  <label>Upload <input type="file" data-qa="upload-file-input" multiple></label>
  <ul data-qa="document-list" aria-label="Documents"></ul>
</main>
`;

const SCRIPT = String.raw`
const field = document.querySelector('input[data-qa="upload-file-input"]');
field.addEventListener("change", () => {
  const list = document.querySelector('[data-qa="document-list"]');
  list.replaceChildren(...[...field.files].map((file) => {
    const item = document.createElement("li");
    item.dataset.qa = "document";
    item.dataset.size = String(file.size);
    item.dataset.type = file.type;
    item.innerHTML = '<span data-qa="document-name"></span> — <span data-qa="document-size"></span>';
    item.querySelector('[data-qa="document-name"]').textContent = file.name;
    item.querySelector('[data-qa="document-size"]').textContent = file.size + " bytes";
    return item;
  }));
});
`;

export function docusign(url: URL): WebResponse | null {
  if (url.hostname !== "app.docusign.com" || !url.pathname.startsWith("/send/prepare")) return null;
  return htmlPage({ title: "Add documents | DocuSign", site: "DocuSign", body: BODY, script: SCRIPT });
}
