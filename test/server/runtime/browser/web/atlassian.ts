// admin.atlassian.com: a billing page listing one invoice, and at any other address the invoice
// itself, a small generated PDF sent as an attachment so that the browser really downloads it.
import { escapeHtml, htmlPage, type WebResponse } from "./html.js";

/**
 * A one-page PDF naming the invoice: valid for a PDF reader, small, the same bytes for the same id.
 *
 * @example
 * invoicePdf("IN-1"); // Uint8Array starting with "%PDF-1.4"
 */
export function invoicePdf(id: string): Uint8Array {
  const text = id.replace(/[^\x20-\x7e]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 18 Tf 72 720 Td (Invoice ${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

const SAMPLE_INVOICE = "/gateway/api/billing-ux/api/billing/invoices/IN-EU-002-392-813/download";

/** The invoice id in a download address: `/invoices/<id>/…`, else `?id=`, else the last segment. */
function invoiceId(url: URL): string {
  const raw = /\/invoices\/([^/]+)/.exec(url.pathname)?.[1] ?? url.searchParams.get("id") ?? url.pathname.split("/").filter(Boolean).at(-1) ?? "invoice";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `/` and `/billing…` are pages; every other address is an invoice download. */
export function atlassian(url: URL): WebResponse {
  if (url.pathname === "/" || url.pathname.startsWith("/billing")) {
    return htmlPage({
      title: "Billing - Atlassian Administration",
      site: "Atlassian Administration",
      body: `<main><h1>Billing</h1><table><tr><th>Invoice</th><th></th></tr>
<tr><td>IN-EU-002-392-813</td><td><a href="${escapeHtml(SAMPLE_INVOICE)}">Download</a></td></tr></table></main>`,
    });
  }
  const pdf = invoicePdf(invoiceId(url));
  return {
    status: 200,
    // Atlassian names no file; `attachment` makes the browser save it rather than show it.
    headers: { "content-type": "application/pdf", "content-disposition": "attachment", "content-length": String(pdf.byteLength) },
    body: pdf,
  };
}
