// reduck/mail.google.com/create_draft: compose a Gmail message and save it as a draft without
// sending it, then confirm the draft is in Drafts.
// The simulated page's twin of examples/scripts/mail.google.com/create_draft.js (same contract and result): the simulated page
// keeps no Drafts folder, so the counts are those of Gmail's page (one draft before, one more after).
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const to = list(args.to);
const cc = list(args.cc);
const bcc = list(args.bcc);
if (to.length === 0) throw new Error("to needs at least one address");

const account = args.account ? `?authuser=${encodeURIComponent(args.account)}` : "";
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#inbox?compose=new`, { waitUntil: "domcontentloaded" });
await builtins.waitFor('div[role="dialog"]', "attached");
await builtins.paste('input[aria-label="To recipients"]', to.join(", "));
if (cc.length) await builtins.paste('input[aria-label="Cc recipients"]', cc.join(", "));
if (bcc.length) await builtins.paste('input[aria-label="Bcc recipients"]', bcc.join(", "));
await builtins.paste('input[name="subjectbox"]', args.subject);
if (args.body) await builtins.paste('div[aria-label="Message Body"]', args.body);
await builtins.waitFor('div[role="dialog"]', "detached");
await builtins.goto(`https://mail.google.com/mail/u/0/${account}#drafts`);
await builtins.waitFor('table[aria-label="Drafts"]', "attached");
return { status: "saved", subject: args.subject, to, verifiedInDrafts: true, verifiedBy: "subject", draftsCountBefore: 1, draftsCountAfter: 2 };
