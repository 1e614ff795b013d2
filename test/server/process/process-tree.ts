/**
 * The sandbox ends everything it started when it is told to stop, and stops when whoever started
 * it ends. `npm run sandbox` and `npx reduck-sandbox` run it as npm → sh → node: a SIGTERM to npm
 * ends npm and sh without passing it on, and the sandbox (with its script processes and its
 * Chromium, which Playwright starts in a process group of its own) would live on, orphaned.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Each process's parent, from /proc (Linux); an empty map elsewhere. */
function parents(): Map<number, number> {
  const found = new Map<number, number>();
  if (process.platform !== "linux") return found;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      found.set(Number(name), ppid);
    } catch {
      // Ended while the table was read.
    }
  }
  return found;
}

/**
 * Every process below `root`: its children, theirs, and so on (Linux; none elsewhere).
 *
 * @example
 * descendantPids(); // [4711, 4712, 4790]
 */
export function descendantPids(root = process.pid): number[] {
  const table = parents();
  const below = new Set<number>([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of table) {
      if (!below.has(pid) && below.has(ppid)) {
        below.add(pid);
        grew = true;
      }
    }
  }
  below.delete(root);
  return [...below];
}

/** Ends (SIGKILL) every process this one started and theirs: what a clean close left behind. */
export function killDescendants(): void {
  for (const pid of descendantPids()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Calls `ended` once the process that started this one has ended (this one's parent changes, as
 * an orphan is handed to init or a subreaper). Checked every `everyMs`, on a timer that keeps
 * nothing alive.
 */
export function whenParentEnds(ended: () => void, everyMs = 250): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    ended();
  }, everyMs);
  timer.unref();
}
