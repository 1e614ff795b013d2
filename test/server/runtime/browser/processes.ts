// Processes as Linux's /proc shows them: which are whose children, and how much memory a whole
// tree holds (the sandbox's browser is a tree of Chromium processes). Empty or 0 elsewhere.
import { readdir, readFile } from "node:fs/promises";

/** Every process's id and parent id. */
export async function processTable(): Promise<Array<{ pid: number; ppid: number }>> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  const rows: Array<{ pid: number; ppid: number }> = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (Number.isInteger(ppid)) rows.push({ pid: Number(entry), ppid });
  }
  return rows;
}

/**
 * Resident memory of `root` and all its descendants, in bytes.
 *
 * @example
 * await treeRssBytes(sandbox.pid); // the sandbox with its browser
 */
export async function treeRssBytes(root: number): Promise<number> {
  const table = await processTable();
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { pid, ppid } of table) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of tree) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    total += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  }
  return total;
}
