// reduck/slack.com/upload_file: upload a text file (its content given inline) to a channel through
// Slack's upload dialog, and return the file's id, name, title and permalink as Slack shows them.
if (typeof args.content !== "string" || args.content === "") throw new Error("content is empty: give the text the file holds");
const filename = args.filename ?? "file.txt";
const wanted = args.channel.trim().replace(/^#/, "");
const domain = args.workspaceDomain?.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
if (domain !== undefined && !/^[a-z0-9-]+\.slack\.com$/i.test(domain)) throw new Error(`workspaceDomain must be a workspace's host, e.g. acme.slack.com (got ${JSON.stringify(args.workspaceDomain)})`);

await builtins.goto(domain ? `https://${domain}/` : "https://app.slack.com/client", { waitUntil: "domcontentloaded" });
await builtins.waitFor('nav[aria-label="Channels"]', "attached");
const channels = await page.locator('nav[aria-label="Channels"] a[data-channel-id]').evaluateAll((links) => links.map((a) => ({ id: a.dataset.channelId, name: a.dataset.name })));
const channel = channels.find((c) => c.id === wanted || c.name === wanted.toLowerCase());
if (!channel) throw new Error(`no channel ${args.channel} in this workspace (its channels: ${channels.map((c) => `#${c.name}`).join(", ")})`);
await page.locator(`nav[aria-label="Channels"] a[data-channel-id="${channel.id}"]`).click();
await builtins.waitFor('form[data-qa="composer"] [role="textbox"]', "visible");

const cards = page.locator('[data-qa="messages"] [data-qa="file"]');
const before = await cards.count();
// The text becomes a file in the composer's file field, as a file picked from disk.
await page.locator('input[data-qa="file_upload"]').evaluate((input, file) => {
  const picked = new DataTransfer();
  picked.items.add(new File([file.content], file.name, { type: "text/plain" }));
  input.files = picked.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}, { content: args.content, name: filename });
const dialog = page.getByRole("dialog", { name: "Upload a file" });
await dialog.waitFor();
if (args.title) await dialog.locator('input[name="title"]').fill(args.title);
if (args.comment) await dialog.locator('textarea[name="comment"]').fill(args.comment);
await dialog.getByRole("button", { name: "Upload" }).click();

const card = cards.nth(before);
await card.waitFor();
return {
  ok: true,
  id: await card.getAttribute("data-file-id"),
  name: await card.getAttribute("data-name"),
  title: await card.locator(".title").textContent(),
  permalink: await card.locator("a.permalink").getAttribute("href"),
};
