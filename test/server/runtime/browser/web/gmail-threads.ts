// mail.google.com's conversations, part of the Gmail page's script (gmail.ts joins the two, which
// share one scope): the inbox lists one conversation, `#inbox/<thread id>` opens it, and its Reply
// and Reply all open an inline reply (Cc, body, attachments, Send, and Schedule send through the
// same picker as the compose window). A reply sent joins the conversation; one scheduled is filed
// in the Scheduled folder under the conversation's thread id.

/** The account's own address: Reply all leaves it out. */
export const GMAIL_ME = "demo@example.com";

/** The conversation the inbox holds. */
export const GMAIL_THREAD = {
  id: "19f2817451c27480",
  subject: "Invoice for October",
  from: "billing@vendor.example",
  to: [GMAIL_ME, "finance@example.com"],
  cc: ["accounts@example.com"],
  body: "Hello, please find our invoice for October attached.",
} as const;

export const THREAD_SCRIPT = String.raw`
const ME = ${JSON.stringify(GMAIL_ME)};
const THREADS = [${JSON.stringify({ ...GMAIL_THREAD, messages: [{ from: GMAIL_THREAD.from, to: GMAIL_THREAD.to.join(", "), cc: GMAIL_THREAD.cc.join(", "), body: GMAIL_THREAD.body, attachments: "" }] })}];

function inboxTable() {
  return threadTable("Inbox", THREADS, (thread) => thread.id, '<td class="from"></td><td><a class="subject"></a></td>', (row, thread) => {
    row.querySelector(".from").textContent = thread.messages[0].from;
    row.querySelector(".subject").textContent = thread.subject;
    row.querySelector(".subject").href = "#inbox/" + thread.id;
  });
}

function messageItem(message) {
  const item = document.createElement("div");
  item.setAttribute("role", "listitem");
  item.className = "message";
  Object.assign(item.dataset, { from: message.from, to: message.to, cc: message.cc, attachments: message.attachments });
  item.innerHTML = '<p class="from"></p><div class="body"></div><p class="attachments"></p>';
  item.querySelector(".from").textContent = message.from + " to " + message.to + (message.cc ? ", cc " + message.cc : "");
  item.querySelector(".body").textContent = message.body;
  item.querySelector(".attachments").textContent = message.attachments;
  return item;
}

function openReply(article, thread, all) {
  if (article.querySelector('[role="region"][aria-label="Reply"]')) return;
  const last = thread.messages.at(-1);
  const others = (text) => list(text).filter((address) => address !== ME);
  const to = [last.from, ...(all ? others(last.to) : [])];
  const autoCc = all ? others(last.cc) : [];
  const region = document.createElement("div");
  region.setAttribute("role", "region");
  region.setAttribute("aria-label", "Reply");
  region.dataset.to = to.join(", ");
  region.dataset.cc = autoCc.join(", ");
  region.innerHTML =
    '<p class="recipients"></p>' +
    '<input aria-label="Cc recipients" placeholder="Cc" autocomplete="off">' +
    '<div aria-label="Message Body" role="textbox" aria-multiline="true" contenteditable="true"></div>' +
    '<div aria-label="Attachments" role="list"></div>' +
    '<input type="file" name="Filedata" multiple style="display:none">' +
    '<footer><button type="button" aria-label="Send (Ctrl-Enter)">Send</button>' +
    '<button type="button" aria-label="More send options">▾</button></footer>';
  region.querySelector(".recipients").textContent = "To: " + to.join(", ");
  const files = () => [...region.querySelector('input[type="file"]').files];
  region.addEventListener("change", () => {
    region.querySelector('[aria-label="Attachments"]').replaceChildren(...files().map((f) => {
      const chip = document.createElement("div");
      chip.className = "chip";
      chip.setAttribute("role", "listitem");
      chip.setAttribute("aria-label", "Attachment: " + f.name);
      chip.textContent = f.name + " (" + size(f.size) + ")";
      return chip;
    }));
  });
  const reply = () => ({
    threadId: thread.id,
    from: ME,
    to: to.join(", "),
    cc: [...autoCc, ...list(region.querySelector('input[aria-label="Cc recipients"]').value)].join(", "),
    subject: "Re: " + thread.subject,
    body: region.querySelector('[aria-label="Message Body"]').innerText,
    attachments: files().map((f) => f.name).join(", "),
  });
  const sendReply = () => {
    thread.messages.push(reply());
    region.remove();
    showThread();
    toast("Message sent");
  };
  region.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      sendReply();
    }
  });
  region.querySelector('footer button[aria-label^="Send"]').addEventListener("click", sendReply);
  region.querySelector('footer button[aria-label="More send options"]').addEventListener("click", () =>
    openScheduler(region, (picker) => {
      const when = pickedTime(picker);
      if (!when) return;
      const message = reply();
      picker.remove();
      region.remove();
      fileScheduled(message, when);
    }),
  );
  article.append(region);
}

// #inbox/<id> shows that conversation (or says it is not there); returns whether the address named one.
function showThread() {
  const match = /^#inbox\/([^/?]+)$/.exec(location.hash);
  if (!match) return false;
  const mailbox = document.getElementById("mailbox");
  const thread = THREADS.find((t) => t.id === match[1]);
  if (!thread) {
    mailbox.replaceChildren();
    const missing = document.createElement("p");
    missing.className = "not-found";
    missing.textContent = "The conversation you requested could not be found.";
    mailbox.append(missing);
    return true;
  }
  const article = document.createElement("article");
  article.setAttribute("aria-label", "Conversation");
  article.dataset.legacyThreadId = thread.id;
  article.innerHTML = '<h2 class="subject"></h2><div role="list" aria-label="Messages"></div>' +
    '<button type="button" aria-label="Reply">Reply</button> <button type="button" aria-label="Reply all">Reply all</button>';
  article.querySelector(".subject").textContent = thread.subject;
  article.querySelector('[aria-label="Messages"]').append(...thread.messages.map(messageItem));
  article.querySelector('button[aria-label="Reply"]').addEventListener("click", () => openReply(article, thread, false));
  article.querySelector('button[aria-label="Reply all"]').addEventListener("click", () => openReply(article, thread, true));
  mailbox.replaceChildren(article);
  return true;
}
`;
