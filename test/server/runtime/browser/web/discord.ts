// discord.com/channels/<guild>/<channel>: a text channel as Discord shows it, with one earlier
// message, the composer (a rich textbox and a file field whose files become the message's
// attachments) and the message list. Enter in the composer posts: the page gives the message a
// snowflake id and a timestamp, and each attachment its name, size, type and a SHA-256 of the bytes
// it received (computed in the page, since Playwright's routing never sees a file's bytes). Like
// Discord, it refuses an empty message and one over 2000 characters, with a notice saying why.
import { escapeHtml, htmlPage, type WebResponse } from "./html.js";

const STYLE = `
  body { background: #313338; color: #dbdee1; }
  header { background: #1e1f22; color: #f2f3f5; border: 0; }
  ol[data-list-id="chat-messages"] { list-style: none; padding: 0; margin: 0 0 80px; }
  ol[data-list-id="chat-messages"] > li { padding: 6px 0; border-bottom: 1px solid #3f4147; }
  .username { font-weight: 600; color: #f2f3f5; margin-right: 8px; }
  time { color: #949ba4; font-size: 12px; }
  .attachment { display: block; margin-top: 4px; color: #00a8fc; }
  form#composer { position: fixed; left: 20px; right: 20px; bottom: 16px; background: #383a40; border-radius: 8px; padding: 10px 12px; }
  [role="textbox"] { min-height: 22px; outline: none; white-space: pre-wrap; }
  [aria-label="Uploads"] { list-style: none; margin: 0 0 6px; padding: 0; }
  [role="alert"] { color: #fa777c; margin-top: 6px; }
`;

function body(guildId: string, channelId: string): string {
  return `
<main data-guild-id="${escapeHtml(guildId)}" data-channel-id="${escapeHtml(channelId)}">
  <h1># general</h1>
  <ol data-list-id="chat-messages" aria-label="Messages in general">
    <li id="chat-messages-${escapeHtml(channelId)}-1180000000000000000" data-message-id="1180000000000000000">
      <span class="username">Sandbox Bot</span><time datetime="2023-11-24T09:00:00.000Z">11/24/2023 9:00 AM</time>
      <div class="content" id="message-content-1180000000000000000">Welcome to #general!</div>
    </li>
  </ol>
  <form id="composer">
    <ul aria-label="Uploads"></ul>
    <input type="file" class="file-input" multiple style="display:none">
    <div role="textbox" aria-label="Message #general" aria-multiline="true" contenteditable="true"></div>
  </form>
</main>
`;
}

const SCRIPT = String.raw`
const LIMIT = 2000;
const DISCORD_EPOCH = 1420070400000n;
const main = document.querySelector("main");
const channelId = main.dataset.channelId;
const textbox = document.querySelector('[role="textbox"]');
const field = document.querySelector('input.file-input');
const uploads = document.querySelector('[aria-label="Uploads"]');
const list = document.querySelector('ol[data-list-id="chat-messages"]');
let lastId = 0n;
let posting = false;

// A snowflake as Discord makes them: milliseconds since 2015 shifted past 22 bits, unique per page.
function snowflake(at) {
  let id = (BigInt(at) - DISCORD_EPOCH) << 22n;
  if (id <= lastId) id = lastId + 1n;
  lastId = id;
  return id.toString();
}

function notice(text) {
  document.querySelectorAll('[role="alert"]').forEach((old) => old.remove());
  const alert = document.createElement("div");
  alert.setAttribute("role", "alert");
  alert.textContent = text;
  document.getElementById("composer").append(alert);
}

field.addEventListener("change", () => {
  uploads.replaceChildren(...[...field.files].map((file) => {
    const item = document.createElement("li");
    item.className = "upload";
    item.dataset.filename = file.name;
    item.dataset.size = String(file.size);
    item.textContent = file.name + " (" + file.size + " bytes)";
    return item;
  }));
});

async function post() {
  const content = textbox.innerText.trim();
  const files = [...field.files];
  if (!content && files.length === 0) return notice("You cannot send an empty message.");
  if (content.length > LIMIT) return notice("Your message is too long: " + content.length + " of " + LIMIT + " characters.");
  posting = true;
  const at = Date.now();
  const id = snowflake(at);
  const item = document.createElement("li");
  item.id = "chat-messages-" + channelId + "-" + id;
  item.dataset.messageId = id;
  item.innerHTML = '<span class="username">sandbox-user</span><time></time><div class="content"></div>';
  const time = item.querySelector("time");
  time.dateTime = new Date(at).toISOString();
  time.textContent = new Date(at).toLocaleString();
  const text = item.querySelector(".content");
  text.id = "message-content-" + id;
  text.textContent = content;
  for (const [index, file] of files.entries()) {
    const link = document.createElement("a");
    link.className = "attachment";
    link.dataset.attachmentId = (BigInt(id) + BigInt(index + 1)).toString();
    link.dataset.filename = file.name;
    link.dataset.size = String(file.size);
    link.dataset.contentType = file.type || "application/octet-stream";
    link.dataset.sha256 = await sha256Of(file);
    link.href = "https://cdn.discordapp.com/attachments/" + channelId + "/" + link.dataset.attachmentId + "/" + encodeURIComponent(file.name);
    link.textContent = file.name + " (" + file.size + " bytes)";
    item.append(link);
  }
  list.append(item);
  textbox.replaceChildren();
  field.value = "";
  uploads.replaceChildren();
  document.querySelectorAll('[role="alert"]').forEach((old) => old.remove());
  posting = false;
}

textbox.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.shiftKey) return;
  event.preventDefault();
  if (!posting) post();
});
`;

/**
 * `/channels/<guild or @me>/<channel>` is a channel; any other address on discord.com is null (a 404 page).
 *
 * @example
 * discord(new URL("https://discord.com/channels/1/22"))?.status; // 200
 * discord(new URL("https://discord.com/app")); // null
 */
export function discord(url: URL): WebResponse | null {
  const match = /^\/channels\/(\d+|@me)\/(\d+)\/?$/.exec(url.pathname);
  if (!match) return null;
  return htmlPage({ title: "#general | Sandbox Guild - Discord", site: "Discord", body: body(match[1]!, match[2]!), style: STYLE, script: SCRIPT });
}
