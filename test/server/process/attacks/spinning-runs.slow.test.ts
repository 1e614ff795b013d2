// Runs that compute without end must not starve other runs: a caller holds at most five of the six
// places scripts run in, so another caller's run starts at once beside six spinning ones; a run
// that waits for a place is not charged for the wait (its time limit starts with its body); and a
// spinning body ends when its time is used up. In-process (the sandbox's MSW handlers), two
// accounts of the seeded store: demo spins, alice is the innocent caller.
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { createHandlers, createStore, type SandboxStore, SEED_IDS } from "../../index.js";
import { MAX_PER_CALLER, MAX_RUNNING, scriptPlaces } from "../../runtime/script-processes.js";
import { type Answer, callWithKey, plainScript } from "../../testing/sandbox-under-attack.js";

const API = "https://reduck.ai";
const RUN = "https://mcp.reduck.ai/run";
const TIMEOUT_S = 1;

const server = setupServer();
let store: SandboxStore;
let aliceKey: string;
let scripts = 0;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  store = createStore({ runTimeoutMs: TIMEOUT_S * 1000, browser: "simulated" });
  aliceKey = store.addApiKey(SEED_IDS.users.alice);
  server.resetHandlers(...createHandlers(store));
});
afterEach(() => expect(scriptPlaces()).toEqual({ running: 0, waiting: 0 }));
afterAll(() => server.close());

/** Creates a script of `owner` (demo or alice) with this body: its slug. */
async function create(key: string, owner: string, content: string): Promise<string> {
  const slug = `spin_${++scripts}`;
  const created = await callWithKey(key, "POST", `${API}/api/scripts/@${owner}`, plainScript(slug, "A run beside spinning ones", content));
  expect(created.status).toBe(201);
  return slug;
}

/** Starts a run; resolves with its answer and the order it ended in. */
function run(key: string, owner: string, slug: string, ended: string[], label: string): Promise<Answer> {
  return callWithKey(key, "POST", RUN, { browser: "extension", script: { handle: `@${owner}`, host: "example.org", slug, args: {} } }).then((answer) => {
    ended.push(label);
    return answer;
  });
}

/** Resolves once `count` runs hold a place. */
async function placesHeld(count: number): Promise<void> {
  while (scriptPlaces().running < count) await new Promise((resolve) => setImmediate(resolve));
}

it("another caller's run succeeds beside six spinning runs, before any of them ends", async () => {
  expect(MAX_PER_CALLER).toBe(MAX_RUNNING - 1);
  // Long enough that none can end before the innocent run has started and ended, even on a
  // loaded machine (where starting its process takes seconds).
  const spinFor = 6;
  store.runTimeoutMs = spinFor * 1000;
  const spinner = await create(store.demo.apiKey, "demo", "while (true) {}");
  const innocent = await create(aliceKey, "alice", "return { innocent: 'fine' };");
  const ended: string[] = [];
  const spinning = Array.from({ length: 6 }, (_, i) => run(store.demo.apiKey, "demo", spinner, ended, `spinner ${i}`));
  await placesHeld(MAX_PER_CALLER);
  // demo holds all it may; its sixth run waits, and the last place stays free for alice.
  expect(scriptPlaces()).toEqual({ running: MAX_PER_CALLER, waiting: 1 });
  const beside = await run(aliceKey, "alice", innocent, ended, "innocent");
  expect(beside).toMatchObject({ status: 200, body: { result: { innocent: "fine" } } });
  expect(ended).toEqual(["innocent"]);
  // The spinning ones end when their time is used up, each as a timeout.
  for (const answer of await Promise.all(spinning)) {
    expect(answer).toMatchObject({ status: 422, body: { error: `script timed out after ${spinFor} s` } });
  }
}, 90_000);

it("a run that waits for a place behind its caller's spinning runs is not charged for the wait", async () => {
  const spinner = await create(store.demo.apiKey, "demo", "while (true) {}");
  const quick = await create(store.demo.apiKey, "demo", "return { waited: 'fine' };");
  const ended: string[] = [];
  // Two rounds of spinning runs ahead of it: it waits about twice its own time limit.
  const spinning = Array.from({ length: 2 * MAX_PER_CALLER }, (_, i) => run(store.demo.apiKey, "demo", spinner, ended, `spinner ${i}`));
  await placesHeld(MAX_PER_CALLER);
  const waited = run(store.demo.apiKey, "demo", quick, ended, "waited");
  expect(await waited).toMatchObject({ status: 200, body: { result: { waited: "fine" } } });
  // It ran only once the first round had ended and the second had its places.
  expect(ended.slice(0, MAX_PER_CALLER).every((label) => label.startsWith("spinner "))).toBe(true);
  for (const answer of await Promise.all(spinning)) expect(answer).toMatchObject({ status: 422, body: { error: `script timed out after ${TIMEOUT_S} s` } });
}, 60_000);

it("waiting runs are served fairly: a place that frees goes to the caller holding fewest", async () => {
  const spinner = await create(store.demo.apiKey, "demo", "while (true) {}");
  const aliceSpinner = await create(aliceKey, "alice", "while (true) {}");
  const innocent = await create(aliceKey, "alice", "return { innocent: 'fine' };");
  const ended: string[] = [];
  // demo fills its five places and queues a second round; alice takes the last place with a spinner.
  const demoRuns = Array.from({ length: 2 * MAX_PER_CALLER }, (_, i) => run(store.demo.apiKey, "demo", spinner, ended, `demo ${i}`));
  await placesHeld(MAX_PER_CALLER);
  const aliceSpin = run(aliceKey, "alice", aliceSpinner, ended, "alice spinner");
  await placesHeld(MAX_RUNNING);
  // alice's second run comes after demo's second round, and still goes before it: when a place
  // frees, alice holds at most one and demo four.
  const aliceRun = run(aliceKey, "alice", innocent, ended, "alice innocent");
  expect(await aliceRun).toMatchObject({ status: 200, body: { result: { innocent: "fine" } } });
  await Promise.all([...demoRuns, aliceSpin]);
  // None of demo's second round ended before alice's run (first come, first served would have
  // run the whole second round first).
  const innocentAt = ended.indexOf("alice innocent");
  for (let i = MAX_PER_CALLER; i < 2 * MAX_PER_CALLER; i++) expect(ended.indexOf(`demo ${i}`)).toBeGreaterThan(innocentAt);
}, 90_000);
