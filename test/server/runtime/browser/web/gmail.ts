// mail.google.com: a compose window like Gmail's, and beside it what the recipient will see
// (recipients, subject, body, the attachment's name and size). Control+Enter in the window sends,
// after which the page shows "Message sent" and the sent message.
import { THREAD_SCRIPT } from "./gmail-threads.js";
import { htmlPage, type WebResponse } from "./html.js";

const STYLE = `
  [role="dialog"] { position: fixed; right: 24px; bottom: 0; width: 520px; background: #fff; border: 1px solid #dadce0;
    box-shadow: 0 4px 16px rgba(0,0,0,.2); border-radius: 8px 8px 0 0; }
  [role="dialog"] h2 { margin: 0; padding: 8px 12px; font-size: 14px; background: #f2f6fc; border-radius: 8px 8px 0 0; }
  [role="dialog"] input:not([type=file]) { display: block; width: calc(100% - 24px); margin: 0 12px; border: 0; border-bottom: 1px solid #eee; padding: 6px 0; font: inherit; }
  [role="dialog"] [aria-label="Message Body"] { min-height: 80px; margin: 6px 12px; white-space: pre-wrap; outline: none; }
  .chip { display: inline-block; margin: 4px 12px; padding: 4px 8px; background: #f1f3f4; border-radius: 4px; }
  .chip .size { color: #5f6368; margin-left: 6px; }
  [role="dialog"] footer { padding: 8px 12px; }
  #preview { max-width: 560px; border: 1px dashed #9aa0a6; padding: 8px 12px; }
  #preview h3 { margin: 0 0 6px; font-size: 13px; color: #5f6368; }
  #preview dt { float: left; clear: left; width: 90px; color: #5f6368; }
  #preview dd { margin: 0 0 2px 90px; min-height: 1.2em; white-space: pre-wrap; }
  [role="menu"] { position: absolute; background: #fff; border: 1px solid #dadce0; padding: 4px 0; }
  [role="menuitem"] { padding: 6px 16px; cursor: pointer; }
  section[aria-label="Pick date & time"] { position: fixed; left: 30%; top: 30%; background: #fff; border: 1px solid #dadce0; padding: 16px; }
  table[aria-label="Scheduled"] { margin-top: 8px; }
  [role="alert"] { position: fixed; left: 24px; bottom: 24px; background: #202124; color: #fff; padding: 10px 16px; border-radius: 4px; }
`;

const BODY = `
<main>
  <nav><a href="#inbox">Inbox</a> · <a href="#scheduled">Scheduled</a> · <a href="#drafts">Drafts <span class="count">1</span></a></nav>
  <div id="mailbox"></div>
  <section id="preview" aria-label="What the recipient will see">
    <h3>What the recipient will see</h3>
    <dl>
      <dt>Status</dt><dd data-preview="status">draft</dd>
      <dt>To</dt><dd data-preview="to"></dd>
      <dt>Cc</dt><dd data-preview="cc"></dd>
      <dt>Bcc</dt><dd data-preview="bcc" title="each Bcc recipient sees only their own address"></dd>
      <dt>Subject</dt><dd data-preview="subject"></dd>
      <dt>Body</dt><dd data-preview="body"></dd>
      <dt>Attachment</dt><dd data-preview="attachment"></dd>
    </dl>
  </section>
</main>
`;

// The page's own script: the compose window exists while the address says compose=new; the file
// field's current files are the attachments (choosing files again replaces them).
const SCRIPT = String.raw`
const size = (n) => n < 1024 ? n + " B" : n < 1048576 ? Math.round(n / 1024) + " KB" : (n / 1048576).toFixed(1).replace(/\.0$/, "") + " MB";
const list = (text) => text.split(/[,;]/).map((s) => s.trim()).filter(Boolean);
let sent = false;
/** The Scheduled folder: what "Schedule send" filed, in order. */
const scheduled = [];
/** The Drafts folder, with the draft the account already had. */
const drafts = [{ threadId: "18c0ffee00000001", to: "team@example.com", subject: "Notes for Monday" }];

function show(key, text) {
  document.querySelector('[data-preview="' + key + '"]').textContent = text;
}

function attachmentsOf(dialog) {
  return [...dialog.querySelector('input[type="file"][name="Filedata"]').files];
}

function refresh() {
  const dialog = document.querySelector('div[role="dialog"]');
  if (!dialog || sent) return;
  const value = (selector) => dialog.querySelector(selector).value;
  show("to", list(value('input[aria-label="To recipients"]')).join(", "));
  show("cc", list(value('input[aria-label="Cc recipients"]')).join(", "));
  show("bcc", list(value('input[aria-label="Bcc recipients"]')).join(", "));
  show("subject", value('input[name="subjectbox"]'));
  show("body", dialog.querySelector('div[aria-label="Message Body"]').innerText);
  const files = attachmentsOf(dialog);
  show("attachment", files.map((f) => f.name + " (" + size(f.size) + ")").join(", "));
  const chips = dialog.querySelector('[aria-label="Attachments"]');
  chips.replaceChildren(...files.map((f) => {
    const chip = document.createElement("div");
    chip.className = "chip";
    chip.setAttribute("role", "listitem");
    chip.setAttribute("aria-label", "Attachment: " + f.name);
    chip.dataset.size = String(f.size);
    chip.innerHTML = '<span class="name"></span><span class="size"></span>';
    chip.querySelector(".name").textContent = f.name;
    chip.querySelector(".size").textContent = "(" + size(f.size) + ")";
    return chip;
  }));
}

function refuse(container, text) {
  container.querySelectorAll('[role="alertdialog"]').forEach((old) => old.remove());
  const error = document.createElement("div");
  error.setAttribute("role", "alertdialog");
  error.textContent = text;
  container.append(error);
}

function toast(text) {
  const notice = document.createElement("div");
  notice.setAttribute("role", "alert");
  notice.textContent = text;
  document.body.append(notice);
}

function hasRecipients(dialog) {
  if (list(dialog.querySelector('input[aria-label="To recipients"]').value).length > 0) return true;
  refuse(dialog, "Please specify at least one recipient.");
  return false;
}

function send(dialog) {
  if (!hasRecipients(dialog)) return;
  refresh();
  sent = true;
  dialog.remove();
  show("status", "sent");
  document.getElementById("mailbox").textContent = "Sent — 1 conversation.";
  toast("Message sent");
}

// Gmail's thread ids: 16 hex digits.
const threadId = () => [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
const displayDate = (when) =>
  when.toLocaleString(navigator.language || "en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });

/** The time the picker holds, or null after saying why it cannot be used. */
function pickedTime(picker) {
  const value = picker.querySelector('input[type="datetime-local"]').value;
  const when = value ? new Date(value) : null;
  if (!when || Number.isNaN(when.getTime())) return refuse(picker, "Enter a valid date and time."), null;
  if (when.getTime() <= Date.now()) return refuse(picker, "Scheduled time must be in the future."), null;
  return when;
}

/** Files a message in the Scheduled folder (a reply keeps its conversation's thread id). */
function fileScheduled(message, when) {
  scheduled.push({ threadId: message.threadId ?? threadId(), to: message.to, cc: message.cc ?? "", subject: message.subject, attachments: message.attachments, when: displayDate(when) });
  toast("Send scheduled");
  showFolder();
}

function schedule(dialog, picker) {
  const when = pickedTime(picker);
  if (!when) return;
  if (!hasRecipients(dialog)) return picker.remove();
  refresh();
  const field = (selector) => dialog.querySelector(selector).value;
  sent = true;
  picker.remove();
  dialog.remove();
  show("status", "scheduled for " + displayDate(when));
  fileScheduled({
    to: list(field('input[aria-label="To recipients"]')).join(", "),
    cc: list(field('input[aria-label="Cc recipients"]')).join(", "),
    subject: field('input[name="subjectbox"]'),
    attachments: attachmentsOf(dialog).map((f) => f.name).join(", "),
  }, when);
}

function saveDraft(dialog) {
  refresh();
  const field = (selector) => dialog.querySelector(selector).value;
  drafts.push({ threadId: threadId(), to: list(field('input[aria-label="To recipients"]')).join(", "), subject: field('input[name="subjectbox"]') });
  document.querySelector('nav a[href="#drafts"] .count').textContent = String(drafts.length);
  sent = true;
  dialog.remove();
  show("status", "draft saved");
  toast("Draft saved");
}

/** The menu beside Send: "Schedule send" opens the date and time picker, whose button calls confirm(picker). */
function openScheduler(container, confirm = (picker) => schedule(container, picker)) {
  const menu = element("div", { role: "menu" }, '<div role="menuitem" tabindex="0">Schedule send</div>');
  menu.firstChild.addEventListener("click", () => {
    menu.remove();
    const picker = element(
      "section",
      { role: "dialog", "aria-label": "Pick date & time" },
      '<h2>Pick date &amp; time</h2><input type="datetime-local" aria-label="Date and time">' +
        '<button type="button">Cancel</button> <button type="button">Schedule send</button>',
    );
    const [cancel, scheduleButton] = picker.querySelectorAll("button");
    cancel.addEventListener("click", () => picker.remove());
    scheduleButton.addEventListener("click", () => confirm(picker));
    document.body.append(picker);
  });
  container.querySelector("footer").append(menu);
}

/** A table of threads (the inbox, the drafts): a row each, with these cells, filled by fill(row, item). */
function threadTable(label, items, threadIdOf, cells, fill) {
  const table = element("table", { "aria-label": label });
  table.append(...items.map((item) => {
    const row = element("tr", { role: "row", "data-legacy-thread-id": threadIdOf(item) }, cells);
    fill(row, item);
    return row;
  }));
  return table;
}

function draftsTable() {
  return threadTable("Drafts", drafts, (draft) => draft.threadId, '<td class="recipients"></td><td class="subject"></td>', (row, draft) => {
    row.querySelector(".recipients").textContent = "Draft — To: " + draft.to;
    row.querySelector(".subject").textContent = draft.subject;
  });
}

// The folder the address names: the inbox (#inbox, or no folder), a conversation (#inbox/<id>),
// #scheduled and #drafts; a compose window leaves the folder as it was.
function showFolder() {
  if (showThread()) return;
  const mailbox = document.getElementById("mailbox");
  if (location.hash === "" || /^#inbox(\?|$)/.test(location.hash)) {
    const intro = document.createElement("p");
    intro.innerHTML = 'Inbox — ' + THREADS.length + ' conversation. Open <a href="#inbox?compose=new">a new message</a>.';
    return mailbox.replaceChildren(intro, inboxTable());
  }
  if (location.hash === "#drafts") return mailbox.replaceChildren(draftsTable());
  if (location.hash !== "#scheduled") return;
  mailbox.replaceChildren();
  if (scheduled.length === 0) {
    mailbox.textContent = "No scheduled messages.";
    return;
  }
  const table = document.createElement("table");
  table.setAttribute("aria-label", "Scheduled");
  table.append(...scheduled.map((message) => {
    const row = document.createElement("tr");
    row.setAttribute("role", "row");
    row.dataset.threadId = "thread-f:" + BigInt("0x" + message.threadId);
    row.dataset.legacyThreadId = message.threadId;
    row.dataset.cc = message.cc;
    row.innerHTML = '<td class="recipients"></td><td class="subject"></td><td class="attachments"></td><td class="when"></td>';
    row.querySelector(".recipients").textContent = "To: " + message.to;
    row.querySelector(".subject").textContent = message.subject;
    row.querySelector(".attachments").textContent = message.attachments;
    row.querySelector(".when").textContent = message.when;
    return row;
  }));
  mailbox.append(table);
}

function openCompose() {
  if (sent || document.querySelector('div[role="dialog"]') || !/compose=new/.test(location.hash)) return;
  const dialog = element(
    "div",
    { role: "dialog", "aria-label": "New Message" },
    '<h2>New Message</h2>' +
    '<input aria-label="To recipients" placeholder="To" autocomplete="off">' +
    '<input aria-label="Cc recipients" placeholder="Cc" autocomplete="off">' +
    '<input aria-label="Bcc recipients" placeholder="Bcc" autocomplete="off">' +
    '<input name="subjectbox" aria-label="Subject" placeholder="Subject" autocomplete="off">' +
    '<div aria-label="Message Body" role="textbox" aria-multiline="true" contenteditable="true"></div>' +
    '<div aria-label="Attachments" role="list"></div>' +
    '<input type="file" name="Filedata" multiple style="display:none">' +
    '<footer><button type="button" aria-label="Send (Ctrl-Enter)">Send</button>' +
    '<button type="button" aria-label="More send options">▾</button>' +
    '<button type="button" aria-label="Save &amp; close">Close</button></footer>',
  );
  dialog.addEventListener("input", refresh);
  dialog.addEventListener("change", refresh);
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send(dialog);
    }
  });
  dialog.querySelector('footer button[aria-label^="Send"]').addEventListener("click", () => send(dialog));
  dialog.querySelector('footer button[aria-label="More send options"]').addEventListener("click", () => openScheduler(dialog));
  dialog.querySelector('footer button[aria-label="Save & close"]').addEventListener("click", () => saveDraft(dialog));
  document.body.append(dialog);
  refresh();
}

`;

// Started once both parts of the script are defined (they share one scope).
const START = String.raw`
addEventListener("hashchange", () => {
  openCompose();
  showFolder();
});
openCompose();
showFolder();
`;

/** Every address on mail.google.com shows the mailbox; `#…compose=new` opens the compose window. */
export function gmail(url: URL): WebResponse {
  const account = url.searchParams.get("authuser");
  return htmlPage({
    title: `Inbox${account ? ` - ${account}` : ""} - Gmail`,
    site: "Gmail",
    body: BODY,
    style: STYLE,
    script: SCRIPT + THREAD_SCRIPT + START,
  });
}
