/**
 * The built CLI on a real pseudo-terminal (util-linux `script`), for what only a terminal shows:
 * the table width, the progress bar's redraws, a confirmation prompt, Ctrl-C typed as a key.
 * stdin, stdout and stderr are all the terminal, so the output is one stream, as a user sees it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { BIN, baseEnv } from "../support/cli.js";

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface Terminal {
  /** Everything written to the terminal so far, raw (escape sequences and \r\n included). */
  output(): string;
  /** Types on the keyboard ("\x03" is Ctrl-C). */
  type(keys: string): void;
  /** Resolves once the output matches, i.e. when the event happened, whatever the machine's load. */
  waitFor(pattern: RegExp): Promise<void>;
  /** The CLI's exit code and everything it wrote. */
  exited: Promise<{ code: number | null; output: string }>;
  /**
   * Sends `signal` to the CLI itself (the process `script` runs), as `kill` from another shell
   * would: SIGKILL stops it where it stands, with no chance to tidy up. Linux only (it reads /proc).
   */
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts `reduck ...args` on a terminal `columns` wide.
 *
 * @example
 * const t = openTerminal(["runs", "delete", id], { env });
 * await t.waitFor(/\[y\/N\] $/);
 * t.type("y\r");
 * const { code } = await t.exited;
 */
export function openTerminal(
  args: string[],
  { env = {}, columns = 80, rows = 24, cwd }: { env?: Record<string, string>; columns?: number; rows?: number; cwd?: string } = {},
): Terminal {
  const command = `stty cols ${columns} rows ${rows}; exec ${[process.execPath, BIN, ...args].map(shellQuote).join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...baseEnv(), NO_COLOR: "1", TERM: "xterm", ...env },
    stdio: ["pipe", "pipe", "pipe"],
    cwd,
  });
  let output = "";
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.pattern.test(output)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    check();
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      for (const w of waiters.splice(0)) w.resolve();
      resolve({ code, output });
    });
  });
  return {
    output: () => output,
    type: (keys) => child.stdin.write(keys),
    waitFor: (pattern) =>
      new Promise<void>((resolve) => {
        waiters.push({ pattern, resolve });
        check();
      }),
    exited,
    kill(signal) {
      // `script` runs the command through `sh -c 'exec ...'`, so the CLI is script's only child.
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      if (children.length !== 1) throw new Error(`expected the CLI as the terminal's one process, found ${children.length}`);
      process.kill(Number(children[0]), signal);
    },
  };
}

/**
 * What the screen shows once the output is replayed: each line as it was last drawn (a carriage
 * return starts the line over, `ESC [ K` clears the rest of it). Enough for single-line redraws.
 */
export function screenLines(raw: string): string[] {
  const lines: string[] = [];
  for (const line of raw.replace(/\r\n/g, "\n").split("\n")) {
    let cells: string[] = [];
    let cursor = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === "\r") cursor = 0;
      else if (line.startsWith("\x1b[K", i)) {
        cells = cells.slice(0, cursor);
        i += 2;
      } else if (c === "\x1b") {
        // Another escape sequence (colours): skip it.
        const end = line.slice(i).search(/[A-Za-z]/);
        i += end < 0 ? 0 : end;
      } else {
        cells[cursor++] = c;
      }
    }
    lines.push(cells.join(""));
  }
  return lines;
}
