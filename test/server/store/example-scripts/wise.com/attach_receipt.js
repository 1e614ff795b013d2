// reduck/wise.com/attach_receipt: attach a receipt or invoice (PDF, JPG, PNG…, under 10 MB), given
// as base64, to a Wise card transaction, and confirm it from the transaction's Attachments section.
const LIMIT = 10 * 1000 * 1000;
const txid = String(args.txid ?? "").trim();
if (!/^\d+$/.test(txid)) throw new Error(`txid must be a card transaction id, digits only, e.g. 2980039980 (got ${JSON.stringify(args.txid)})`);
const filename = args.filename ?? "receipt.pdf";
const mime = args.mime ?? "application/pdf";
const base64 = args.b64.replace(/^data:[^,]*,/, "").replace(/\s+/g, "");
let size;
try {
  size = atob(base64).length;
} catch {
  throw new Error("b64 is not valid base64: encode the file's bytes, e.g. base64 -i receipt.pdf | tr -d '\\n'");
}
if (size === 0) throw new Error("b64 holds no bytes: give the receipt's content");
if (size >= LIMIT) throw new Error(`the file is ${size} bytes; Wise takes receipts under 10 MB`);

await builtins.goto(`https://wise.com/transactions/activities/by-resource/CARD_TRANSACTION/${txid}`, { waitUntil: "domcontentloaded" });
const section = page.locator('section[aria-label="Attachments"]');
const field = 'section[aria-label="Attachments"] input[type="file"]';
await builtins.waitFor(field, "attached");
const items = section.locator("li.attachment");
const before = await items.count();
// The bytes are decoded in the page and dropped into the section's file field, as a picked file.
await page.locator(field).evaluate((input, file) => {
  const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
  const picked = new DataTransfer();
  picked.items.add(new File([bytes], file.name, { type: file.type }));
  input.files = picked.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}, { base64, name: filename, type: mime });

const added = items.nth(before);
await added.or(section.getByRole("alert")).first().waitFor();
if (!(await added.count())) throw new Error(`Wise refused the file: ${await section.getByRole("alert").textContent()}`);
const listed = { name: await added.getAttribute("data-filename"), size: Number(await added.getAttribute("data-size")) };
const texts = await items.allTextContents();
return {
  txid,
  attached: listed.name === filename && listed.size === size,
  attachmentSection: `Attachments: ${texts.join("; ")}`,
};
