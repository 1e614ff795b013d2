// wise.com/transactions/…/CARD_TRANSACTION/<id>: one card transaction's details with its
// Attachments section. A file put into the section's field is uploaded (kept by the page) and
// listed with its name, size, type and a SHA-256 of the bytes the page received; like Wise, the
// page refuses a file of 10 MB or more and a type it does not take, saying why.
import { escapeHtml, htmlPage, type WebResponse } from "./html.js";

function body(txid: string): string {
  return `
<main data-transaction-id="${escapeHtml(txid)}">
  <h1>Sandbox Café</h1>
  <dl><dt>Amount</dt><dd>12.40 EUR</dd><dt>Transaction</dt><dd>CARD_TRANSACTION ${escapeHtml(txid)}</dd></dl>
  <section aria-label="Attachments">
    <h2>Attachments</h2>
    <ul class="attachments"></ul>
    <label>Add a receipt <input type="file" name="receipt"></label>
  </section>
</main>
`;
}

const SCRIPT = String.raw`
const LIMIT = 10 * 1000 * 1000;
const TYPES = ["application/pdf", "image/jpeg", "image/png", "image/gif", "image/heic", "image/webp"];
const section = document.querySelector('section[aria-label="Attachments"]');
const field = section.querySelector('input[type="file"]');
function refuse(text) {
  section.querySelectorAll('[role="alert"]').forEach((old) => old.remove());
  const alert = document.createElement("p");
  alert.setAttribute("role", "alert");
  alert.textContent = text;
  section.append(alert);
}
field.addEventListener("change", async () => {
  const [file] = field.files;
  field.value = "";
  if (!file) return;
  if (file.size >= LIMIT) return refuse(file.name + " is too big: receipts must be under 10 MB.");
  if (!TYPES.includes(file.type)) return refuse(file.name + ": this file type is not supported (" + (file.type || "unknown") + ").");
  const item = document.createElement("li");
  item.className = "attachment";
  item.dataset.filename = file.name;
  item.dataset.size = String(file.size);
  item.dataset.type = file.type;
  item.dataset.sha256 = await sha256Of(file);
  item.textContent = file.name + " (" + file.size + " bytes, " + file.type + ")";
  section.querySelector(".attachments").append(item);
});
`;

/**
 * A card transaction's page at `/transactions/activities/by-resource/CARD_TRANSACTION/<id>`; else null (a 404 page).
 *
 * @example
 * wise(new URL("https://wise.com/transactions/activities/by-resource/CARD_TRANSACTION/42"))?.status; // 200
 */
export function wise(url: URL): WebResponse | null {
  const match = /^\/transactions\/activities\/by-resource\/CARD_TRANSACTION\/(\d+)\/?$/.exec(url.pathname);
  if (!match) return null;
  return htmlPage({ title: "Sandbox Café - Wise", site: "Wise", body: body(match[1]!), script: SCRIPT });
}
