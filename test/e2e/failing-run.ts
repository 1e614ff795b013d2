/**
 * A script that fails in the sandbox's real Chromium on its way, with hostile strings in its
 * argument, one of its steps and its error: the run whose page run-page.test.ts and
 * pages.slow.test.ts look at.
 */
import type { SandboxStore } from "@reduck-client/sandbox";

export const HOSTILE_ARG = `<img src=x onerror="document.title='pwned'">`;
export const HOSTILE_ERROR = `</style><script>document.title='pwned'</script>`;
export const HOSTILE_SELECTOR = "text=<b onmouseover=alert(1)>send</b>";
export const FAILING_SCRIPT = "@demo/mail.google.com/fails_late";

/** Fills the subject with `args.note`, tries a click at a hostile selector (a failed step), then throws. */
const FAILING_BODY = `
await page.goto("https://mail.google.com/mail/u/0/#inbox?compose=new");
await builtins.waitFor('div[role="dialog"]');
await builtins.paste('div[role="dialog"] input[name="subjectbox"]', args.note);
await page.locator(${JSON.stringify(HOSTILE_SELECTOR)}).click({ timeout: 300 }).catch(() => {});
throw new Error(${JSON.stringify(HOSTILE_ERROR)});`;

/** Adds the script to a store (a `seed` of useCliSandbox). */
export function addFailingScript(store: SandboxStore): void {
  store.addScript({
    handle: "@demo",
    host: "mail.google.com",
    slug: "fails_late",
    content: FAILING_BODY,
    inputSchema: { type: "object", properties: { note: { type: "string" } } },
  });
}
