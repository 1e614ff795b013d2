// What the sandbox asks of the simulated page, one operation at a time (the sandbox records the
// trace, waits and retries; the page only answers): open a document, act on a located element,
// run a script's function in the page, press keys. Each answer says where the page now is, and
// an action whose element is not there yet (or not visible yet) answers "wait" rather than failing.
import * as act from "./actions.js";
import type { Element } from "./element.js";
import { reportPageError } from "./events.js";
import type { FileDescription } from "./files.js";
import { resolve } from "./locate.js";
import { isVisible } from "./roles.js";
import { currentDocument, openDocument, place } from "./window.js";

export type Op = { op: string; [key: string]: unknown };

/** An answer: a value, a reason to try again later, or an error (always with where the page is). */
export type Answer = { ok: true; value?: unknown } | { ok: false; wait: string } | { ok: false; error: { name: string; message: string } };

class Wait {
  constructor(readonly reason: string) {}
}

const fail = (message: string, name = "Error") => Object.assign(new Error(message), { name });

/** The one element an action acts on (Playwright's strictness: more than one is an error), once in `state`. */
function target(op: Op, state: string): Element {
  const found = resolve(currentDocument(), op.target);
  if (found.length > 1 && op.strict !== false) {
    throw fail(`strict mode violation: ${String(op.describe ?? "the locator")} resolved to ${found.length} elements`);
  }
  const element = found[0];
  if (!act.inState(element, state)) throw new Wait(element ? `element is not ${state}` : "no element matches yet");
  return element!;
}

/** The state an action waits for: Playwright's actionability checks, unless `force`. */
function stateFor(action: string, options: Record<string, unknown>): string {
  if (options.force === true) return "attached";
  if (["click", "dblclick", "check", "uncheck", "setChecked", "hover", "tap"].includes(action)) return "enabled";
  if (["fill", "clear"].includes(action)) return "editable";
  return "attached";
}

function perform(op: Op): unknown {
  const action = String(op.action);
  const args = Array.isArray(op.args) ? op.args : [];
  const options = (args.find((a) => typeof a === "object" && a !== null && !Array.isArray(a)) ?? {}) as Record<string, unknown>;
  if (action === "count") return resolve(currentDocument(), op.target).length;
  if (action === "allTextContents") return resolve(currentDocument(), op.target).map((e) => e.textContent ?? "");
  if (action === "allInnerTexts") return resolve(currentDocument(), op.target).map((e) => e.innerText);
  if (action === "isVisible" || action === "isHidden") {
    const found = resolve(currentDocument(), op.target);
    if (found.length > 1) throw fail(`strict mode violation: ${String(op.describe ?? "the locator")} resolved to ${found.length} elements`);
    const visible = found[0] !== undefined && isVisible(found[0]);
    return action === "isVisible" ? visible : !visible;
  }
  const element = target(op, stateFor(action, options));
  switch (action) {
    case "click":
      return act.click(element, options);
    case "dblclick":
      return act.click(element, options, 2);
    case "tap":
      return act.click(element, options);
    case "hover":
    case "scrollIntoViewIfNeeded":
    case "selectText":
      return undefined;
    case "focus":
      return element.focus();
    case "blur":
      return element.blur();
    case "fill":
      return act.fill(element, String(args[0] ?? ""));
    case "clear":
      return act.fill(element, "");
    case "type":
    case "pressSequentially":
      return act.type(element, String(args[0] ?? ""));
    case "press":
      element.focus();
      return act.press(element, String(args[0] ?? ""));
    case "check":
    case "uncheck":
      return act.setChecked(element, action === "check");
    case "setChecked":
      return act.setChecked(element, Boolean(args[0]));
    case "dispatchEvent":
      return act.dispatchNamed(element, String(args[0] ?? ""), (args[1] ?? {}) as Record<string, unknown>);
    case "textContent":
      return element.textContent;
    case "innerText":
      return element.innerText;
    case "innerHTML":
      return element.innerHTML;
    case "inputValue":
      return act.inputValue(element);
    case "getAttribute":
      return element.getAttribute(String(args[0] ?? ""));
    case "isChecked":
      return Boolean((element as unknown as { checked?: boolean }).checked);
    case "isDisabled":
    case "isEnabled":
      return element.hasAttribute("disabled") === (action === "isDisabled");
    case "isEditable":
      return act.isEditable(element);
    case "waitFor":
      return undefined;
    default:
      throw fail(`${action} is not something the simulated page does`);
  }
}

/** Playwright's locator.waitFor and page.waitForSelector: the first match (strict for a locator) in `state`. */
function waitFor(op: Op): void {
  const state = String(op.state ?? "visible");
  const found = resolve(currentDocument(), op.target);
  if (found.length > 1 && op.strict !== false && (state === "visible" || state === "attached")) {
    throw fail(`strict mode violation: ${String(op.describe ?? "the locator")} resolved to ${found.length} elements`);
  }
  const element = state === "visible" ? (found.find((e) => isVisible(e)) ?? found[0]) : found[0];
  if (!act.inState(element, state)) throw new Wait(element ? `element is not ${state}` : "no element matches yet");
}

/** Runs a script's function (or the value of its expression) in the page, with the elements it asks for. */
async function evaluate(op: Op, fn: unknown): Promise<unknown> {
  let subject: unknown[] = [];
  if (op.target !== undefined && op.target !== null) {
    const found = resolve(currentDocument(), op.target);
    if (op.all === true) subject = [found];
    else {
      if (found.length > 1 && op.strict !== false)
        throw fail(`strict mode violation: ${String(op.describe ?? "the locator")} resolved to ${found.length} elements`);
      if (!found[0])
        throw op.strict === false ? fail(`Failed to find element matching selector ${String(op.describe ?? "")}`) : new Wait("no element matches yet");
      subject = [found[0]];
    }
  }
  let value: unknown;
  try {
    value = typeof fn === "function" ? await fn(...subject, op.arg) : await fn;
  } catch (thrown) {
    // As a browser reports it: the error's own name and message.
    throw fail(thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : `Error: ${String(thrown)}`);
  }
  if (op.truthy === true && !value) throw new Wait("the function's value is not truthy yet");
  return value;
}

/** Answers one operation; `code` is what the sandbox had compiled for it (scripts to run, a function to call). */
export async function answer(op: Op, code: unknown): Promise<Answer> {
  try {
    switch (op.op) {
      case "open": {
        openDocument(String(op.html ?? ""), String(op.url ?? "about:blank"));
        for (const script of Array.isArray(code) ? code : []) {
          try {
            if (typeof script === "function") script();
          } catch (error) {
            reportPageError(error);
          }
        }
        return { ok: true, value: currentDocument().title };
      }
      case "act":
        return { ok: true, value: perform(op) };
      case "wait":
        waitFor(op);
        return { ok: true };
      case "evaluate":
        return { ok: true, value: await evaluate(op, code) };
      case "keyboard": {
        const document = currentDocument();
        const within = document.documentElement as Element;
        const text = String(op.text ?? "");
        if (op.method === "press") act.press(within, text);
        else if (op.method === "type") for (const character of text) act.press(within, character === "\n" ? "Enter" : character);
        else if (op.method === "insertText") act.insertText((document.focused as Element | null) ?? document.body, text);
        return { ok: true };
      }
      case "paste":
        act.paste(target(op, "attached"), String(op.text ?? ""));
        return { ok: true };
      case "upload":
        act.upload(target(op, "attached"), op.file as FileDescription);
        return { ok: true };
      case "title":
        return { ok: true, value: currentDocument().title };
      case "content":
        return { ok: true, value: `<!DOCTYPE html>${(currentDocument().documentElement as Element | null)?.outerHTML ?? ""}` };
      default:
        throw fail(`the simulated page does not know ${String(op.op)}`);
    }
  } catch (thrown) {
    if (thrown instanceof Wait) return { ok: false, wait: thrown.reason };
    const error = thrown instanceof Error ? thrown : fail(String(thrown));
    return { ok: false, error: { name: String(error.name || "Error"), message: String(error.message) } };
  }
}

/** Where the page is now, and where it asked to go (a document the sandbox must load). */
export function whereabouts(): { url: string; navigate?: string } {
  const navigate = place.requested;
  place.requested = undefined;
  return navigate === undefined ? { url: place.url } : { url: place.url, navigate };
}
