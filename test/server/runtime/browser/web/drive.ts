// drive.google.com/drive/…: My Drive's file list and the hidden file field behind its upload
// button. Each file put into the field becomes a new row with a Drive-like id, the name it arrived
// under, its size and a SHA-256 of the bytes the page received (computed in the page).
import { htmlPage, type WebResponse } from "./html.js";

const BODY = `
<main>
  <h1>My Drive</h1>
  <button type="button" aria-label="New">New</button>
  <input type="file" name="Filedata" multiple style="display:none">
  <div role="grid" aria-label="Files">
    <div role="row" data-id="1sandboxWelcomeDocAAAAAAAAAAAAAAA" data-size="1024"><span class="name">Welcome.pdf</span></div>
  </div>
</main>
`;

const SCRIPT = String.raw`
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
// Drive file ids: 33 characters of URL-safe base64, starting with 1.
const fileId = () => "1" + [...crypto.getRandomValues(new Uint8Array(32))].map((b) => ALPHABET[b % 64]).join("");
const field = document.querySelector('input[type="file"][name="Filedata"]');
field.addEventListener("change", async () => {
  for (const file of field.files) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.dataset.id = fileId();
    row.dataset.size = String(file.size);
    row.dataset.sha256 = await sha256Of(file);
    row.innerHTML = '<span class="name"></span>';
    row.querySelector(".name").textContent = file.name;
    document.querySelector('[role="grid"][aria-label="Files"]').append(row);
  }
  field.value = "";
});
`;

/**
 * `/drive/…` shows My Drive; any other address on drive.google.com is null (a 404 page).
 *
 * @example
 * drive(new URL("https://drive.google.com/drive/my-drive"))?.status; // 200
 */
export function drive(url: URL): WebResponse | null {
  if (!url.pathname.startsWith("/drive")) return null;
  return htmlPage({ title: "My Drive - Google Drive", site: "Google Drive", body: BODY, script: SCRIPT });
}
