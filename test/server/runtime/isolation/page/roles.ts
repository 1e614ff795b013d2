// What getByRole and the waits read of an element: its ARIA role (explicit, or implied by its tag),
// its accessible name, whether assistive technology sees it, and whether it is visible (rendered
// with a box of its own, which the simulated page, having no layout, judges by what it holds).
import type { Control } from "./controls.js";
import { descendants, Element, isRendered } from "./element.js";
import { Text } from "./nodes.js";

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
/** Elements that have a box even when empty: form controls and replaced elements. */
const BOXED = new Set(["input", "textarea", "select", "button", "img", "iframe", "video", "canvas", "svg", "hr", "object", "embed", "progress", "meter"]);
/** Roles whose name comes from what the element holds. */
const NAME_FROM_CONTENT = new Set([
  "button",
  "cell",
  "checkbox",
  "columnheader",
  "gridcell",
  "heading",
  "link",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "row",
  "rowheader",
  "switch",
  "tab",
  "tooltip",
  "treeitem",
]);

function implicitRole(element: Element): string | null {
  const tag = element.localName;
  const control = element as Control;
  switch (tag) {
    case "a":
    case "area":
      return element.hasAttribute("href") ? "link" : null;
    case "button":
      return "button";
    case "input": {
      const type = control.type;
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox" || type === "radio") return type;
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      if (["text", "email", "tel", "url", "password"].includes(type)) return element.hasAttribute("list") ? "combobox" : type === "password" ? null : "textbox";
      return null;
    }
    case "textarea":
      return "textbox";
    case "select":
      return element.hasAttribute("multiple") ? "listbox" : "combobox";
    case "option":
      return "option";
    case "img":
      return element.getAttribute("alt") === "" ? "presentation" : "img";
    case "ul":
    case "ol":
      return "list";
    case "li":
      return "listitem";
    case "nav":
      return "navigation";
    case "main":
      return "main";
    case "aside":
      return "complementary";
    case "article":
      return "article";
    case "header":
      return element.closest("article, aside, main, nav, section") ? null : "banner";
    case "footer":
      return element.closest("article, aside, main, nav, section") ? null : "contentinfo";
    case "section":
      return namedByAttribute(element) ? "region" : null;
    case "form":
      return namedByAttribute(element) ? "form" : null;
    case "table":
      return "table";
    case "tr":
      return "row";
    case "td":
      return "cell";
    case "th":
      return "columnheader";
    case "thead":
    case "tbody":
    case "tfoot":
      return "rowgroup";
    case "dialog":
      return "dialog";
    case "p":
      return "paragraph";
    case "hr":
      return "separator";
    case "fieldset":
    case "details":
      return "group";
    case "progress":
      return "progressbar";
    case "output":
      return "status";
    default:
      return HEADINGS.has(tag) ? "heading" : null;
  }
}

/** Whether the element is named by its attributes (what makes a section a region, a form a form). */
function namedByAttribute(element: Element): boolean {
  return ["aria-label", "aria-labelledby", "title"].some((name) => Boolean(element.getAttribute(name)?.trim()));
}

/** The element's role: its role attribute's first token, else the one its tag implies. */
export function roleOf(element: Element): string | null {
  const explicit = (element.getAttribute("role") ?? "").trim().split(/\s+/)[0];
  return explicit || implicitRole(element);
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** The text an element shows, as its name when its role takes its name from its content. */
function contentText(element: Element): string {
  let text = "";
  for (const node of element.childNodes) {
    if (node instanceof Text) text += node.data;
    else if (node instanceof Element && isRendered(node) && node.getAttribute("aria-hidden") !== "true") {
      const label = node.getAttribute("aria-label");
      text += ` ${label?.trim() ? label : node.localName === "img" ? (node.getAttribute("alt") ?? "") : contentText(node)} `;
    }
  }
  return text;
}

/** The labels of a form control: `label[for=id]` and a label around it. */
export function labelsOf(element: Element): Element[] {
  const labels: Element[] = [];
  const id = element.getAttribute("id");
  const root = element.getRootNode();
  if (id) for (const label of descendants(root)) if (label.localName === "label" && label.getAttribute("for") === id) labels.push(label);
  const around = element.closest("label");
  if (around && !labels.includes(around)) labels.push(around);
  return labels;
}

/** The element's accessible name, as accname computes it for the cases pages meet. */
export function accessibleName(element: Element): string {
  const labelledBy = element.getAttribute("aria-labelledby");
  if (labelledBy) {
    const root = element.getRootNode() as unknown as { getElementById?(id: string): Element | null };
    const text = labelledBy
      .split(/\s+/)
      .map((id) => root.getElementById?.(id))
      .filter((e): e is Element => Boolean(e))
      .map((e) => contentText(e))
      .join(" ");
    if (squash(text)) return squash(text);
  }
  const label = element.getAttribute("aria-label");
  if (label && squash(label)) return squash(label);
  const tag = element.localName;
  const type = (element as Control).type;
  if (tag === "input" && ["submit", "reset", "button"].includes(type)) {
    return squash(element.getAttribute("value") ?? (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
  }
  if (tag === "input" || tag === "textarea" || tag === "select") {
    const labelled = squash(
      labelsOf(element)
        .map((l) => contentText(l))
        .join(" "),
    );
    if (labelled) return labelled;
    return squash(element.getAttribute("title") ?? element.getAttribute("placeholder") ?? "");
  }
  if (tag === "img") return squash(element.getAttribute("alt") ?? element.getAttribute("title") ?? "");
  const role = roleOf(element);
  if (role && NAME_FROM_CONTENT.has(role)) {
    const text = squash(contentText(element));
    if (text) return text;
  }
  return squash(element.getAttribute("title") ?? "");
}

/** Whether assistive technology sees the element (getByRole leaves out the others). */
export function isAccessible(element: Element): boolean {
  if (!element.isConnected || !isRendered(element)) return false;
  for (let at: Element | null = element; at; at = at.parentElement) if (at.getAttribute("aria-hidden") === "true") return false;
  return true;
}

/**
 * Whether the element is visible, as Playwright means it (a non-empty box, not visibility:hidden):
 * rendered, and a control, an editable area or holding something shown. Without layout, an
 * element with nothing in it counts as having no box.
 */
export function isVisible(element: Element): boolean {
  if (!element.isConnected || !isRendered(element)) return false;
  if (BOXED.has(element.localName) || element.isContentEditable) return true;
  for (const node of element.childNodes) {
    if (node instanceof Text && node.data.trim()) return true;
    if (node instanceof Element && isVisible(node)) return true;
  }
  return false;
}

/** A name matches a wanted string (case-insensitive part, or the whole when exact) or regular expression. */
export function nameMatches(actual: string, wanted: unknown, exact: boolean): boolean {
  if (wanted instanceof RegExp) {
    wanted.lastIndex = 0;
    return wanted.test(actual);
  }
  const want = squash(String(wanted));
  const have = squash(actual);
  return exact ? have === want : have.toLowerCase().includes(want.toLowerCase());
}

/** The heading level of a heading (h1-h6, or aria-level). */
export function levelOf(element: Element): number | undefined {
  const aria = Number(element.getAttribute("aria-level"));
  if (aria > 0) return aria;
  return HEADINGS.has(element.localName) ? Number(element.localName[1]) : undefined;
}
