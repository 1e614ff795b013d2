// app.slack.com/client/<team>[/<channel>] (and a workspace's own <name>.slack.com): a workspace
// with two channels in its sidebar, a message composer whose file field opens Slack's upload dialog
// (title, optional message, Upload), and each channel's messages, where an uploaded file shows as a
// card with its id, name, title, size, SHA-256 (computed in the page) and permalink.
import { htmlPage, type WebResponse } from "./html.js";

export const SLACK_TEAM = "T0SANDBOX1";

const BODY = `
<main data-team-id="${SLACK_TEAM}">
  <nav aria-label="Channels">
    <a href="/client/${SLACK_TEAM}/C0GENERAL01" data-channel-id="C0GENERAL01" data-name="general"># general</a>
    <a href="/client/${SLACK_TEAM}/C0RANDOM001" data-channel-id="C0RANDOM001" data-name="random"># random</a>
  </nav>
  <section aria-label="Channel">
    <h1 data-qa="channel-name"></h1>
    <ol data-qa="messages"></ol>
    <form data-qa="composer" hidden>
      <input type="file" data-qa="file_upload" style="display:none">
      <div role="textbox" aria-label="Message" contenteditable="true"></div>
    </form>
  </section>
</main>
`;

const SCRIPT = String.raw`
const team = document.querySelector("main").dataset.teamId;
const messages = { C0GENERAL01: [], C0RANDOM001: [] };
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const fileId = () => "F" + [...crypto.getRandomValues(new Uint8Array(10))].map((b) => ALPHANUMERIC[b % 36]).join("");
const field = document.querySelector('input[data-qa="file_upload"]');

function channelOf(pathname) {
  const id = pathname.split("/")[3];
  return Object.hasOwn(messages, id) ? id : null;
}

function render() {
  const channel = channelOf(location.pathname);
  const link = channel && document.querySelector('nav a[data-channel-id="' + channel + '"]');
  document.querySelector('[data-qa="channel-name"]').textContent = link ? "#" + link.dataset.name : "";
  document.querySelector('form[data-qa="composer"]').hidden = !channel;
  document.querySelector('[data-qa="messages"]').replaceChildren(...(channel ? messages[channel] : []).map((message) => {
    const item = document.createElement("li");
    item.dataset.qa = "message";
    item.innerHTML = '<div class="text"></div><div data-qa="file"><span class="title"></span> <a class="permalink"></a></div>';
    item.querySelector(".text").textContent = message.text;
    const card = item.querySelector('[data-qa="file"]');
    Object.assign(card.dataset, { fileId: message.file.id, name: message.file.name, size: String(message.file.size), sha256: message.file.sha256 });
    card.querySelector(".title").textContent = message.file.title;
    card.querySelector(".permalink").href = message.file.permalink;
    card.querySelector(".permalink").textContent = message.file.name;
    return item;
  }));
}

document.querySelector('nav[aria-label="Channels"]').addEventListener("click", (event) => {
  const link = event.target.closest("a[data-channel-id]");
  if (!link) return;
  event.preventDefault();
  history.pushState(null, "", link.getAttribute("href"));
  render();
});

field.addEventListener("change", () => {
  const [file] = field.files;
  const channel = channelOf(location.pathname);
  if (!file || !channel) return;
  const dialog = element(
    "div",
    { role: "dialog", "aria-label": "Upload a file" },
    '<p class="file"></p><label>Title <input name="title"></label>' +
    '<label>Add a message about the file <textarea name="comment"></textarea></label>' +
    '<button type="button">Upload</button>',
  );
  dialog.querySelector(".file").textContent = file.name + " (" + file.size + " bytes)";
  dialog.querySelector('input[name="title"]').value = file.name;
  dialog.querySelector("button").addEventListener("click", async () => {
    const id = fileId();
    const title = dialog.querySelector('input[name="title"]').value.trim() || file.name;
    messages[channel].push({
      text: dialog.querySelector('textarea[name="comment"]').value,
      file: {
        id, name: file.name, title, size: file.size,
        sha256: await sha256Of(file),
        permalink: "https://sandbox.slack.com/files/U0SANDBOX1/" + id + "/" + encodeURIComponent(file.name),
      },
    });
    dialog.remove();
    field.value = "";
    render();
  });
  document.body.append(dialog);
});

addEventListener("popstate", render);
render();
`;

/**
 * A workspace: `app.slack.com/client[/<team>[/<channel>]]`, or the root of `<workspace>.slack.com`;
 * any other address is null (a 404 page).
 *
 * @example
 * slack(new URL("https://app.slack.com/client/T0SANDBOX1/C0GENERAL01"))?.status; // 200
 */
export function slack(url: URL): WebResponse | null {
  // `/client` alone opens the active workspace, as on Slack.
  const workspaceRoot = url.hostname !== "app.slack.com" && url.pathname === "/";
  const client = /^\/client\/?$/.test(url.pathname) || url.pathname.startsWith(`/client/${SLACK_TEAM}`);
  if (!workspaceRoot && !client) return null;
  return htmlPage({ title: "Slack", site: "Slack", body: BODY, script: SCRIPT });
}
