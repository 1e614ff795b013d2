// reduck/mail.google.com/create_draft: compose a Gmail message and save it as a draft without
// sending it, then confirm the draft is in Drafts rather than trusting the compose window closing.
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const to = list(args.to);
const cc = list(args.cc);
const bcc = list(args.bcc);
if (to.length === 0) throw new Error("to needs at least one address");

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#inbox?compose=new`, { waitUntil: "domcontentloaded" });
const compose = 'div[role="dialog"]';
await builtins.waitFor(compose, "attached");
// The count beside the Drafts folder, before and after: a second proof beside the subject.
const draftsCount = async () => {
  const text = await page.locator('nav a[href="#drafts"] .count').textContent();
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
};
const draftsCountBefore = await draftsCount();

await builtins.paste(`${compose} input[aria-label="To recipients"]`, to.join(", "));
if (cc.length) await builtins.paste(`${compose} input[aria-label="Cc recipients"]`, cc.join(", "));
if (bcc.length) await builtins.paste(`${compose} input[aria-label="Bcc recipients"]`, bcc.join(", "));
await builtins.paste(`${compose} input[name="subjectbox"]`, args.subject);
if (args.body) await builtins.paste(`${compose} div[aria-label="Message Body"]`, args.body);
await page.locator(`${compose} button[aria-label="Save & close"]`).click();
await builtins.waitFor(compose, "detached");

await page.locator('nav a[href="#drafts"]').click();
await builtins.waitFor('table[aria-label="Drafts"]', "attached");
const bySubject = (await page.locator('table[aria-label="Drafts"] tr[role="row"] td.subject').filter({ hasText: args.subject }).count()) > 0;
const draftsCountAfter = await draftsCount();
const byCount = draftsCountBefore !== null && draftsCountAfter === draftsCountBefore + 1;
const verifiedInDrafts = bySubject || byCount;
return {
  status: verifiedInDrafts ? "saved" : "not_found",
  subject: args.subject,
  to,
  verifiedInDrafts,
  verifiedBy: bySubject ? "subject" : byCount ? "count" : "none",
  draftsCountBefore,
  draftsCountAfter,
};
