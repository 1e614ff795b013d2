// Form controls and links: the properties pages and scripts read and set (value, checked, files,
// href, action...), and what a click does when nothing cancels it (a link is followed, a submit
// button submits its form, a checkbox toggles, a label clicks its control).
import { Element } from "./element.js";
import { Event, MouseEvent, fire } from "./events.js";
import { FileList } from "./files.js";
import { URL } from "../inside/web-globals/url.js";
import { navigate } from "./navigation.js";

/** The properties this module gives every element, as other modules read them. */
export interface Control extends Element {
  value: string;
  checked: boolean;
  disabled: boolean;
  readOnly: boolean;
  type: string;
  name: string;
  files: FileList | null;
  href: string;
  action: string;
  form: Element | null;
}

const values = new WeakMap<Element, string>();
const checkedStates = new WeakMap<Element, boolean>();
const fileLists = new WeakMap<Element, FileList>();

const TEXT_CONTROLS = new Set(["input", "textarea", "select"]);
const LINKS = new Set(["a", "area"]);

const inputType = (element: Element) => (element.localName === "input" ? (element.getAttribute("type") ?? "text").toLowerCase() : "");

/** An absolute form of `url` against the element's document (as is, when it cannot be read). */
function resolved(element: Element, url: string): string {
  try {
    return new URL(url, element.ownerDocument?.URL).href;
  } catch (_) {
    return url;
  }
}

function reflectString(name: string, attribute = name.toLowerCase()): PropertyDescriptor {
  return {
    get(this: Element) {
      return this.getAttribute(attribute) ?? "";
    },
    set(this: Element, value: unknown) {
      this.setAttribute(attribute, String(value));
    },
    configurable: true,
  };
}

function reflectBoolean(attribute: string): PropertyDescriptor {
  return {
    get(this: Element) {
      return this.hasAttribute(attribute);
    },
    set(this: Element, value: unknown) {
      this.toggleAttribute(attribute, Boolean(value));
    },
    configurable: true,
  };
}

Object.defineProperties(Element.prototype, {
  name: reflectString("name"),
  placeholder: reflectString("placeholder"),
  alt: reflectString("alt"),
  src: reflectString("src"),
  rel: reflectString("rel"),
  lang: reflectString("lang"),
  role: reflectString("role"),
  method: reflectString("method"),
  download: reflectString("download"),
  target: reflectString("target"),
  htmlFor: reflectString("htmlFor", "for"),
  dateTime: reflectString("dateTime", "datetime"),
  defaultValue: reflectString("defaultValue", "value"),
  disabled: reflectBoolean("disabled"),
  readOnly: reflectBoolean("readonly"),
  required: reflectBoolean("required"),
  multiple: reflectBoolean("multiple"),
  open: reflectBoolean("open"),
  type: {
    get(this: Element) {
      if (this.localName === "input") return inputType(this);
      if (this.localName === "button") return (this.getAttribute("type") ?? "submit").toLowerCase();
      return this.getAttribute("type") ?? "";
    },
    set(this: Element, value: unknown) {
      this.setAttribute("type", String(value));
    },
    configurable: true,
  },
  value: {
    get(this: Element) {
      if (inputType(this) === "file") {
        const first = fileLists.get(this)?.[0];
        return first ? `C:\\fakepath\\${first.name}` : "";
      }
      const dirty = values.get(this);
      if (dirty !== undefined) return dirty;
      if (this.localName === "textarea") return this.textContent ?? "";
      return this.getAttribute("value") ?? (inputType(this) === "checkbox" || inputType(this) === "radio" ? "on" : "");
    },
    set(this: Element, value: unknown) {
      if (inputType(this) === "file") {
        if (String(value) !== "") throw Object.assign(new Error("A file input's value can only be set to the empty string."), { name: "InvalidStateError" });
        fileLists.delete(this);
        return;
      }
      if (TEXT_CONTROLS.has(this.localName)) values.set(this, value === null ? "" : String(value));
      else this.setAttribute("value", String(value));
    },
    configurable: true,
  },
  checked: {
    get(this: Element) {
      return checkedStates.get(this) ?? this.hasAttribute("checked");
    },
    set(this: Element, value: unknown) {
      checkedStates.set(this, Boolean(value));
    },
    configurable: true,
  },
  files: {
    get(this: Element) {
      return inputType(this) === "file" ? (fileLists.get(this) ?? new FileList([])) : null;
    },
    set(this: Element, value: unknown) {
      if (inputType(this) !== "file") return;
      if (!(value instanceof FileList)) throw new TypeError("files: give a FileList (a DataTransfer's files)");
      fileLists.set(this, value);
    },
    configurable: true,
  },
  href: {
    get(this: Element) {
      const href = this.getAttribute("href");
      return href === null ? "" : resolved(this, href);
    },
    set(this: Element, value: unknown) {
      this.setAttribute("href", String(value));
    },
    configurable: true,
  },
  action: {
    get(this: Element) {
      return resolved(this, this.getAttribute("action") ?? "");
    },
    set(this: Element, value: unknown) {
      this.setAttribute("action", String(value));
    },
    configurable: true,
  },
  form: {
    get(this: Element) {
      return this.closest("form");
    },
    configurable: true,
  },
  click: {
    value(this: Element) {
      activate(this);
    },
    writable: true,
    configurable: true,
  },
  requestSubmit: {
    value(this: Element, submitter?: Element) {
      if (this.localName === "form") submit(this, submitter ?? null);
    },
    writable: true,
    configurable: true,
  },
  submit: {
    value(this: Element) {
      if (this.localName === "form") navigate((this as Control).action);
    },
    writable: true,
    configurable: true,
  },
});

/** Puts `files` into a file field, as choosing them in the browser's file chooser does (input and change follow). */
export function setFiles(field: Element, files: FileList): void {
  fileLists.set(field, files);
  fire(field, new Event("input", { bubbles: true, composed: true }));
  fire(field, new Event("change", { bubbles: true }));
}

/** The control a label clicks: the one its `for` names, else the first it holds. */
function labelled(label: Element): Element | null {
  const id = label.getAttribute("for");
  if (id !== null)
    return label.ownerDocument ? ((label.ownerDocument as unknown as { getElementById(id: string): Element | null }).getElementById(id) ?? null) : null;
  return label.querySelector("input, textarea, select, button");
}

/** Submits `form` as a submit button does: a submit event, then (unless cancelled) the form's action. */
export function submit(form: Element, submitter: Element | null): void {
  const event = Object.assign(new Event("submit", { bubbles: true, cancelable: true }), { submitter });
  if (fire(form, event)) navigate((form as Control).action);
}

/**
 * A click on `target`, as a person's click gives one: the click event, then what the element does
 * with it unless a listener cancelled it (the nearest link, button, checkbox or label up the tree).
 */
export function activate(target: Element, init: { ctrlKey?: boolean; shiftKey?: boolean; altKey?: boolean; metaKey?: boolean } = {}): void {
  if ((target as Control).disabled) return;
  const event = new MouseEvent("click", { bubbles: true, cancelable: true, composed: true, detail: 1, ...init });
  if (!fire(target, event)) return;
  for (let at: Element | null = target; at; at = at.parentElement) {
    const type = inputType(at);
    if (LINKS.has(at.localName) && at.hasAttribute("href")) return navigate((at as Control).href);
    if ((at.localName === "button" && (at as Control).type === "submit") || type === "submit" || type === "image") {
      const form = (at as Control).form;
      return form ? submit(form, at) : undefined;
    }
    if (type === "checkbox" || type === "radio") {
      if (type === "radio" && (at as Control).checked) return;
      (at as Control).checked = type === "radio" ? true : !(at as Control).checked;
      fire(at, new Event("input", { bubbles: true, composed: true }));
      fire(at, new Event("change", { bubbles: true }));
      return;
    }
    if (at.localName === "label") {
      const control = labelled(at);
      if (control && !control.contains(target)) activate(control);
      return;
    }
    if (at.localName === "summary" && at.parentElement?.localName === "details") {
      at.parentElement.toggleAttribute("open");
      return;
    }
  }
}
