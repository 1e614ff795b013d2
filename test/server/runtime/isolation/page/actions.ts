// What a script does to an element of the simulated page, as Playwright and the builtins do it in
// a browser: click, fill, type, press a key, paste, put a run's file into a file field, check a
// box, read text and attributes. Each fires the events a browser fires, so the page's own script
// reacts as it would.
import { activate, setFiles, submit, type Control } from "./controls.js";
import { Element } from "./element.js";
import { ClipboardEvent, Event, InputEvent, KeyboardEvent, MouseEvent, fire } from "./events.js";
import { DataTransfer, describedFile, type FileDescription, FileList } from "./files.js";
import { Text } from "./nodes.js";
import { isVisible } from "./roles.js";

const TEXT_INPUTS = new Set(["", "text", "email", "password", "search", "tel", "url", "number"]);
const DATE_INPUTS = new Set(["date", "datetime-local", "month", "time", "week", "color", "range"]);

type Modifiers = { ctrlKey: boolean; shiftKey: boolean; altKey: boolean; metaKey: boolean };
const NO_MODIFIERS: Modifiers = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };

/** The element that has focus in `element`'s document, or its body. */
function focusedIn(element: Element): Element | null {
  const owner = element.ownerDocument as unknown as { focused: Element | null; body: Element | null } | null;
  return owner?.focused ?? owner?.body ?? null;
}

function isTextField(element: Element): boolean {
  return element.localName === "textarea" || (element.localName === "input" && TEXT_INPUTS.has((element as Control).type));
}

/** Whether a person could type into the element. */
export function isEditable(element: Element): boolean {
  const control = element as Control;
  if (element.isContentEditable) return true;
  if (!(isTextField(element) || (element.localName === "input" && DATE_INPUTS.has(control.type)))) return false;
  return !control.disabled && !control.readOnly;
}

/** Inserts `text` where the caret is (the end of the focused field) and fires input, as typing does. */
export function insertText(target: Element | null, text: string): void {
  if (!target || text === "") return;
  if (target.isContentEditable) {
    const last = target.lastChild;
    if (last instanceof Text) last.data += text;
    else target.append(text);
  } else if (isEditable(target)) {
    (target as Control).value += text;
  } else return;
  fire(target, new InputEvent("input", { bubbles: true, composed: true, data: text, inputType: "insertText" }));
}

/** A paste as a person makes one: the paste event carrying the text, then (unless the page handled it) the text inserted. */
export function paste(element: Element, text: string): void {
  element.focus();
  const clipboardData = new DataTransfer();
  clipboardData.setData("text/plain", text);
  if (fire(element, new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true, composed: true }))) insertText(focusedIn(element), text);
}

/** Playwright's fill: the field's whole value replaced, with input (and change for date-like fields) fired. */
export function fill(element: Element, value: string): void {
  const control = element as Control;
  if (!element.isContentEditable && !isTextField(element) && !(element.localName === "input" && DATE_INPUTS.has(control.type))) {
    throw new Error("Element is not an <input>, <textarea> or [contenteditable] element");
  }
  if (!isEditable(element)) throw new Error("Element is not editable");
  element.focus();
  if (element.isContentEditable) element.textContent = value;
  else control.value = value;
  fire(element, new InputEvent("input", { bubbles: true, composed: true, data: value, inputType: "insertText" }));
  if (element.localName === "input" && DATE_INPUTS.has(control.type)) fire(element, new Event("change", { bubbles: true }));
}

/** A key name as Playwright writes one (`Control+Enter`): the key, and the modifiers held. */
function parseKey(combo: string): { key: string; modifiers: Modifiers } {
  const parts = combo === "+" ? ["+"] : combo.split(/\+(?!$)/);
  const key = parts.pop() ?? "";
  const modifiers = { ...NO_MODIFIERS };
  for (const part of parts) {
    if (part === "Control" || part === "Ctrl" || part === "ControlOrMeta") modifiers.ctrlKey = true;
    else if (part === "Shift") modifiers.shiftKey = true;
    else if (part === "Alt") modifiers.altKey = true;
    else if (part === "Meta" || part === "Command") modifiers.metaKey = true;
    else throw new Error(`Unknown modifier: ${part}`);
  }
  return { key: key === "Space" ? " " : key, modifiers };
}

function codeOf(key: string): string {
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  return key === " " ? "Space" : key;
}

/** Presses `combo` in the element with focus: keydown, what the key does, keyup. */
export function press(document: Element, combo: string): void {
  const { key, modifiers } = parseKey(combo);
  if (!key) throw new Error(`Unknown key: "${combo}"`);
  const target = focusedIn(document);
  if (!target) return;
  const init = { key, code: codeOf(key), bubbles: true, cancelable: true, composed: true, ...modifiers };
  if (fire(target, new KeyboardEvent("keydown", init))) {
    const typing = !modifiers.ctrlKey && !modifiers.metaKey && !modifiers.altKey;
    if ([...key].length === 1 && typing) {
      fire(target, new KeyboardEvent("keypress", init));
      insertText(target, key);
    } else if (key === "Enter" && typing) {
      if (target.localName === "textarea" || target.isContentEditable) insertText(target, "\n");
      else if (target.localName === "input" && isTextField(target) && (target as Control).form) implicitSubmit((target as Control).form!);
      else if (target.localName === "button" || (target.localName === "a" && target.hasAttribute("href"))) activate(target);
    } else if (key === "Backspace" && isEditable(target)) {
      if (target.isContentEditable) target.textContent = (target.textContent ?? "").slice(0, -1);
      else (target as Control).value = (target as Control).value.slice(0, -1);
      fire(target, new InputEvent("input", { bubbles: true, composed: true, inputType: "deleteContentBackward" }));
    }
  }
  fire(target, new KeyboardEvent("keyup", init));
}

/** Enter in a form's field: its first submit button's click, or the form submitted. */
function implicitSubmit(form: Element): void {
  const button = form.querySelector('button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]');
  if (button) activate(button);
  else submit(form, null);
}

/** Types `text` one key at a time. */
export function type(element: Element, text: string): void {
  element.focus();
  for (const character of text) press(element, character === "\n" ? "Enter" : character);
}

/** A click with the modifiers given as Playwright names them (`["Shift"]`). */
export function click(element: Element, options: Record<string, unknown>, count = 1): void {
  const held = { ...NO_MODIFIERS };
  const modifiers = Array.isArray(options.modifiers) ? options.modifiers : [];
  for (const name of modifiers) Object.assign(held, parseKey(`${String(name)}+x`).modifiers);
  fire(element, new MouseEvent("mousedown", { bubbles: true, cancelable: true, ...held }));
  if (element.localName !== "body") element.focus();
  fire(element, new MouseEvent("mouseup", { bubbles: true, cancelable: true, ...held }));
  for (let i = 0; i < count; i++) activate(element, held);
  if (count === 2) fire(element, new MouseEvent("dblclick", { bubbles: true, cancelable: true, detail: 2, ...held }));
}

/** Checks or unchecks a checkbox or radio button with a click, as Playwright does. */
export function setChecked(element: Element, wanted: boolean): void {
  const control = element as Control;
  if (control.type !== "checkbox" && control.type !== "radio" && element.getAttribute("role") !== "checkbox") throw new Error("Not a checkbox or radio button");
  if (control.checked === wanted) return;
  click(element, {});
  if (control.checked !== wanted) throw new Error("Clicking the checkbox did not change its state");
}

/** Puts a run's file into a file field, as the browser's file chooser does. */
export function upload(element: Element, file: FileDescription): void {
  if (element.localName !== "input" || (element as Control).type !== "file") throw new Error("Node is not an HTMLInputElement of type file");
  setFiles(element, new FileList([describedFile(file)]));
}

/** An element's value, as Playwright's inputValue reads it. */
export function inputValue(element: Element): string {
  if (!["input", "textarea", "select"].includes(element.localName)) throw new Error("Not an <input>, <textarea> or <select> element");
  return (element as Control).value;
}

/** Fires an event by type name, as Playwright's dispatchEvent does (bubbling, cancelable). */
export function dispatchNamed(element: Element, type: string, init: Record<string, unknown> = {}): void {
  const options = { bubbles: true, cancelable: true, composed: true, ...init };
  const event = /^(click|dblclick|mouse\w+|contextmenu)$/.test(type)
    ? new MouseEvent(type, options)
    : /^key/.test(type)
      ? new KeyboardEvent(type, options)
      : new Event(type, options);
  fire(element, event);
}

/** Whether an element is in the state a wait asks for. */
export function inState(element: Element | undefined, state: string): boolean {
  switch (state) {
    case "attached":
      return element !== undefined && element.isConnected;
    case "detached":
      return element === undefined || !element.isConnected;
    case "visible":
      return element !== undefined && isVisible(element);
    case "hidden":
      return element === undefined || !isVisible(element);
    case "enabled":
      return element !== undefined && isVisible(element) && !(element as Control).disabled;
    case "editable":
      return element !== undefined && isVisible(element) && isEditable(element);
    default:
      return element !== undefined;
  }
}
