// What a POST /run session is, whichever browser runs it: the simulated page (sessions.ts) and the
// real browser (browser/session.ts) both give these, and the run's steps use nothing else of them.
import type { RunFile } from "./browser/files.js";
import type { Screenshot } from "./browser/run.js";
import type { FileDescriptor } from "../store/records.js";
import type { TraceStep } from "./builtin-rules.js";
import type { Delivery } from "./downloads.js";
import type { ScriptHost } from "./script-runner.js";

export interface StepOptions {
  /** What `files.<input>` shows the script. */
  files: Record<string, FileDescriptor>;
  /** Where each file's bytes are, for a browser that really puts files into fields. */
  content: Record<string, RunFile>;
  /** Where `builtins.download` puts a file. */
  deliver: Delivery;
}

export interface StepEnd {
  steps: TraceStep[];
  screenshots: Screenshot[];
}

export interface StepBrowser {
  /** What the step's body calls. */
  host: ScriptHost;
  /** Ends the step (call it once, also after a failure or timeout): its trace and screenshots. */
  end(outcome: { failed: boolean }): Promise<StepEnd>;
}

export interface BrowserSession {
  /** The next step, where the step before left the page. */
  step(options: StepOptions): StepBrowser;
  /** Ends the session (call it once, after the last step's end). */
  close(): Promise<void>;
}
