// One measured process of bench/pages.ts: imports the built reduck-client/report as a user's
// program does, and renders a 5,000-step trace once (cold, as a CLI run or a CI step does) and then
// 5 times more (warm). Prints {cold, warm, cpu} in ms as JSON.
import { renderTraceHtml } from "../dist/report.js";

const steps = Array.from({ length: 5_000 }, (_, i) => ({
  index: i,
  action: i % 3 ? `locator('div[role="dialog"] input[name="field${i}"]').fill()` : `goto https://mail.google.com/mail/u/0/#inbox?compose=${i}`,
  ok: i !== 4_321,
  duration_ms: 20 + ((i * 7919) % 900),
  detail: { selector: `#field${i}`, text: `value of row ${i}` },
  ...(i === 4_321 ? { error: "locator.click: Timeout 30000ms exceeded." } : {}),
}));
const run = {
  id: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9",
  status: "error",
  args: { to: "me@example.com", subject: "Hello" },
  result: { error: "Error: the button is gone" },
  started_at: "2026-03-02T14:03:11.000Z",
  finished_at: "2026-03-02T14:20:01.000Z",
  script: { handle: "reduck", host: "mail.google.com", slug: "send_email", version_number: "3", version_id: "v3", id: "s", name: "Send" },
};
const cpu = process.cpuUsage();
let t = performance.now();
renderTraceHtml({ run, trace: { steps } });
const cold = performance.now() - t;
const used = process.cpuUsage(cpu);
const warm = [];
for (let i = 0; i < 5; i++) {
  t = performance.now();
  renderTraceHtml({ run, trace: { steps } });
  warm.push(performance.now() - t);
}
warm.sort((a, b) => a - b);
console.log(JSON.stringify({ cold, warm: warm[2], cpu: (used.user + used.system) / 1000 }));
