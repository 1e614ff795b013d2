// reduck/slack.com/upload_file: upload a text file (its content given inline) to a channel through
// Slack's upload dialog, and return the file's id, name, title and permalink.
// The simulated page's twin of examples/scripts/slack.com/upload_file.js (same contract and result): the simulated page has
// no sidebar or dialog, so the channels are those of Slack's page (#general, #random) and the file's
// id and permalink are made here as that page makes them.
if (typeof args.content !== "string" || args.content === "") throw new Error("content is empty: give the text the file holds");
const filename = args.filename ?? "file.txt";
const wanted = args.channel.trim().replace(/^#/, "");
const domain = args.workspaceDomain?.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
if (domain !== undefined && !/^[a-z0-9-]+\.slack\.com$/i.test(domain)) throw new Error(`workspaceDomain must be a workspace's host, e.g. acme.slack.com (got ${JSON.stringify(args.workspaceDomain)})`);

await builtins.goto(domain ? `https://${domain}/` : "https://app.slack.com/client", { waitUntil: "domcontentloaded" });
await builtins.waitFor('nav[aria-label="Channels"]', "attached");
const channels = [{ id: "C0GENERAL01", name: "general" }, { id: "C0RANDOM001", name: "random" }];
const channel = channels.find((c) => c.id === wanted || c.name === wanted.toLowerCase());
if (!channel) throw new Error(`no channel ${args.channel} in this workspace (its channels: ${channels.map((c) => `#${c.name}`).join(", ")})`);
await builtins.goto(`https://app.slack.com/client/T0SANDBOX1/${channel.id}`);
await builtins.waitFor('form[data-qa="composer"] [role="textbox"]', "visible");
await builtins.waitFor('[role="dialog"][aria-label="Upload a file"]');
if (args.title) await builtins.paste('input[name="title"]', args.title);
if (args.comment) await builtins.paste('textarea[name="comment"]', args.comment);
await builtins.pressKey("Enter");

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const id = "F" + [...crypto.getRandomValues(new Uint8Array(10))].map((b) => ALPHANUMERIC[b % 36]).join("");
const title = (args.title ?? "").trim() || filename;
return { ok: true, id, name: filename, title, permalink: `https://sandbox.slack.com/files/U0SANDBOX1/${id}/${encodeURIComponent(filename)}` };
