// reduck/admin.atlassian.com/download_invoice: one Atlassian billing invoice as a PDF, given the
// downloadUrl (or the id and transaction_account) that the invoice list on admin.atlassian.com's billing page shows.
// The bytes come back with the run (pdf_base64), so the browser's own download folder is never involved.
if (!args.downloadUrl && !(args.id && args.transaction_account)) {
  throw new Error("give downloadUrl, or id together with transaction_account (both from the invoice list on the billing page)");
}
const query = new URLSearchParams({ transactionAccount: args.transaction_account ?? "" });
if (args.sourceSystem) query.set("sourceSystem", args.sourceSystem);
const url =
  args.downloadUrl ??
  `https://admin.atlassian.com/gateway/api/billing-ux/api/billing/invoices/${encodeURIComponent(args.id)}/download?${query}`;
const host = new URL(url).hostname;
if (host !== "admin.atlassian.com") throw new Error(`downloadUrl must be on admin.atlassian.com (it is on ${host})`);

await builtins.goto("https://admin.atlassian.com/billing", { waitUntil: "domcontentloaded" });
const id = args.id ?? decodeURIComponent(/\/invoices\/([^/?]+)/.exec(new URL(url).pathname)?.[1] ?? "invoice");
// Atlassian sends no Content-Disposition: the invoice's number, when given, names the file.
const file = await builtins.download(url, { filename: args.number ? `${args.number}.pdf` : `Atlassian-${id}.pdf`, encoding: "base64" });
return { filename: file.filename, pdf_base64: file.base64, via: "direct", size_bytes: file.size };
