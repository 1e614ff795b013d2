// The simulated page of the run in this worker: one realm per document it opens, each holding the
// code of page/ (PAGE_SCRIPT), the document, its page's script and the functions the body gives to
// evaluate. The sandbox drives it as it drives a real browser page: it sends an operation, the
// page answers. The same walls as the body's realm (see script-worker.ts): no outer object enters
// a page realm, which cannot compile strings; what it runs is compiled here, from text the script
// process checked (body-check.ts); it talks back through reply(id, text) and random(count) only,
// strings and numbers, and both go dead when the run ends.
import vm from "node:vm";
import type { MessagePort } from "node:worker_threads";
import type { PageMessage } from "./messages.js";
import type { PageScript } from "./page/index.js";

/** The bundle of page/ as one script text, put here by build.ts (esbuild's `define`). */
declare const PAGE_SCRIPT: string;

type Entries = ReturnType<PageScript["start"]>;
type Realm = { context: vm.Context; handle: Entries["handle"]; usedDeferred: Entries["usedDeferred"]; promises: object };

export class Pages {
  private readonly realms: Realm[] = [];
  private live = true;

  constructor(
    private readonly port: MessagePort,
    private readonly random: (count: unknown) => string,
    private readonly maxText: number,
    private readonly maxTextLabel: string,
  ) {}

  private send(id: number, text: string): void {
    this.port.postMessage({ type: "pageReply", id, text });
  }

  private fail(id: number, message: string): void {
    this.send(id, JSON.stringify({ ok: false, error: { name: "Error", message } }));
  }

  /** A new realm for a document, its page code started. */
  private open(): Realm {
    const context = vm.createContext(Object.create(null), { name: "page", codeGeneration: { strings: false, wasm: false } });
    const promises = vm.runInContext("Promise.prototype", context) as object;
    const { start } = vm.runInContext(PAGE_SCRIPT, context) as PageScript;
    const reply = (id: unknown, text: unknown): boolean => {
      try {
        if (!this.live || typeof id !== "number" || typeof text !== "string") return false;
        if (text.length > this.maxText + 4096) this.fail(id, `its result is over ${this.maxTextLabel} as JSON`);
        else this.send(id, text);
        return true;
      } catch {
        return false;
      }
    };
    const random = (count: unknown): string => (this.live ? this.random(count) : "");
    const { handle, usedDeferred } = start(reply, random, this.maxText, this.maxTextLabel);
    const realm = { context, handle, usedDeferred, promises };
    this.realms.push(realm);
    return realm;
  }

  /** Answers one operation: in a fresh realm when it opens a document, else in the current one. */
  handle({ id, text, code, fresh }: PageMessage): void {
    if (!this.live || typeof id !== "number" || typeof text !== "string") return;
    let realm = this.realms[this.realms.length - 1];
    if (fresh === true || !realm) {
      try {
        realm = this.open();
      } catch {
        return this.fail(id, "the page could not be made");
      }
    }
    let compiled: unknown;
    if (typeof code === "string") {
      let script: vm.Script;
      try {
        script = new vm.Script(code, { filename: "page.js" });
      } catch (error) {
        // Thrown by this realm's compiler: an object of ours, safe to read.
        return this.fail(id, `SyntaxError: ${(error as Error).message}`);
      }
      try {
        compiled = script.runInContext(realm.context);
      } catch {
        return this.fail(id, "the function could not be made in the page");
      }
    }
    try {
      realm.handle(id, text, compiled);
    } catch {
      this.fail(id, "the page could not answer");
    }
  }

  /** Whether `promise` was made in one of the page's realms (its rejection is the page's, not the run's). */
  owns(promise: unknown): boolean {
    if (typeof promise !== "object" || promise === null) return false;
    const prototype = Object.getPrototypeOf(promise);
    return this.realms.some((realm) => realm.promises === prototype);
  }

  /** Ends the page with its run; whether none of its realms' code can run again (see script-worker.ts). */
  end(): boolean {
    this.live = false;
    let clean = true;
    for (const realm of this.realms) {
      try {
        if (realm.usedDeferred() !== false) clean = false;
      } catch {
        clean = false;
      }
    }
    this.realms.length = 0;
    return clean;
  }
}
