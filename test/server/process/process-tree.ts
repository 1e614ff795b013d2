/**
 * The sandbox ends everything it started when it is told to stop, and stops when whoever started
 * it ends. `npm run sandbox` and `npx reduck-sandbox` run it as npm → sh → node: a SIGTERM to npm
 * ends npm and sh without passing it on, and the sandbox (with its script processes and its
 * Chromium, which Playwright starts in a process group of its own) would live on, orphaned. A
 * SIGINT to npx alone is passed on to sh only, which holds it (isSignalHoldingShell below).
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

/** A process's caught signals (SigCgt) and context switches, from /proc/PID/status; undefined when it is gone. */
function statusOf(pid: number): { caught: bigint; switches: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(status)?.[1] ?? "0";
    return { caught: BigInt(`0x${field("SigCgt")}`), switches: Number(field("voluntary_ctxt_switches")) + Number(field("nonvoluntary_ctxt_switches")) };
  } catch {
    return undefined;
  }
}

const SIGINT_BIT = 1n << 1n;
const SIGCHLD_BIT = 1n << 16n;

/**
 * Whether `pid` is a `sh -c` that catches SIGINT and nothing but SIGINT and SIGCHLD: dash, as
 * `npx` runs a command (npx → sh → node). Such a shell, sent SIGINT while it waits for its child,
 * holds it until the child ends (it waits, then ends itself by SIGINT): npx passes a SIGINT sent
 * to it alone on to that shell only, so the sandbox is never told. (bash runs a lone command in
 * place of itself: no shell between.)
 */
function isSignalHoldingShell(pid: number): boolean {
  try {
    const [argv0 = "", flag] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (!/(^|\/)(sh|dash)$/.test(argv0) || flag !== "-c") return false;
  } catch {
    return false;
  }
  const caught = statusOf(pid)?.caught;
  return caught !== undefined && (caught & SIGINT_BIT) !== 0n && (caught & ~(SIGINT_BIT | SIGCHLD_BIT)) === 0n;
}

/**
 * Calls `ended` once the process that started this one has ended (this one's parent changes, as
 * an orphan is handed to init or a subreaper), or, when that parent is a shell that holds SIGINT
 * (isSignalHoldingShell), once the shell has been handed a signal. Such a shell only sleeps,
 * waiting for this process: it runs again only when a signal it catches arrives, SIGINT or a
 * SIGCHLD this process's own stop or continue sends it (which SIGCONT tells this process of: those
 * are not counted). Checked every `everyMs`, on a timer that keeps nothing alive.
 */
export function whenParentEnds(ended: () => void, everyMs = 250): void {
  const parent = process.ppid;
  const shell = process.platform === "linux" && isSignalHoldingShell(parent);
  let ran = shell ? statusOf(parent)?.switches : undefined;
  let continues = 0;
  let counted = 0;
  const onContinue = () => void continues++;
  if (shell) process.on("SIGCONT", onContinue);
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    clearInterval(timer);
    process.off("SIGCONT", onContinue);
    ended();
  };
  const timer = setInterval(() => {
    if (process.ppid !== parent) return stop();
    if (!shell) return;
    const now = statusOf(parent)?.switches;
    if (now === undefined) return; // the shell is ending: the parent changes next
    if (continues !== counted || ran === undefined) {
      // Stopped and continued (Ctrl-Z, then fg): the shell ran for that; count afresh from here.
      counted = continues;
      ran = now;
      return;
    }
    if (now === ran) return;
    ran = now;
    // The shell ran: look once more, so that a SIGCONT which came with it is read first.
    const at = continues;
    setTimeout(() => continues === at && stop(), everyMs).unref();
  }, everyMs);
  timer.unref();
}
