// reduck/wise.com/attach_receipt: attach a receipt or invoice (PDF, JPG, PNG…, under 10 MB), given
// as base64, to a Wise card transaction, and confirm it from the transaction's Attachments section.
// The simulated page's twin of examples/scripts/wise.com/attach_receipt.js (same contract and result): the simulated page
// keeps no section, so its line is made here as Wise's page writes it (name, size, type), and
// the types that page refuses are refused here too.
const LIMIT = 10 * 1000 * 1000;
const TYPES = ["application/pdf", "image/jpeg", "image/png", "image/gif", "image/heic", "image/webp"];
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
await builtins.waitFor('section[aria-label="Attachments"] input[type="file"]', "attached");
if (!TYPES.includes(mime)) throw new Error(`Wise refused the file: ${filename}: this file type is not supported (${mime}).`);
await builtins.waitFor('section[aria-label="Attachments"] li.attachment', "attached");
return { txid, attached: true, attachmentSection: `Attachments: ${filename} (${size} bytes, ${mime})` };
