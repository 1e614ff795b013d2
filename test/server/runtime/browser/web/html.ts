// What every page of the simulated web is made of: an HTML answer with its styles and script
// inline, so one navigation is one request.

export interface WebResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** Text for HTML: `&`, `<`, `>`, `"` and `'` escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const BASE_STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #202124; }
  header { padding: 12px 20px; background: #f1f3f4; border-bottom: 1px solid #dadce0; font-weight: 600; }
  header small { font-weight: 400; color: #5f6368; margin-left: 8px; }
  main { padding: 16px 20px; }
  table { border-collapse: collapse; } td, th { border: 1px solid #dadce0; padding: 4px 8px; text-align: left; }
`;

/**
 * What every page's script may call, put before it: `element(tag, attributes, html)` makes an
 * element with these attributes (role, aria-label, data-*) and, when given, this inner HTML;
 * `sha256Of(file)` is a file's SHA-256 in hex, hashed from its bytes, or on the sandbox's
 * simulated page (which holds a run's file without its bytes) the one the sandbox computed as it
 * received them (`file.sha256`).
 */
const PAGE_HELPERS = String.raw`
function element(tag, attributes, html) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (html !== undefined) node.innerHTML = html;
  return node;
}
async function sha256Of(file) {
  if (typeof file.sha256 === "string") return file.sha256;
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
`;

/**
 * A whole HTML page of the simulated web.
 *
 * @example
 * htmlPage({ title: "Inbox", site: "Gmail", body: "<main>…</main>", script: "…" });
 */
export function htmlPage(page: { title: string; site: string; body: string; style?: string; script?: string; status?: number }): WebResponse {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<style>${BASE_STYLE}${page.style ?? ""}</style>
</head>
<body>
<header>${escapeHtml(page.site)}<small>simulated by the Reduck sandbox</small></header>
${page.body}
${page.script ? `<script>${PAGE_HELPERS}\n${page.script}\n</script>` : ""}
</body>
</html>
`;
  return { status: page.status ?? 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }, body: html };
}
