// Events as a browser page has them: listeners on any node, the document or the window, capture
// then bubble along the node's ancestors, preventDefault. Enough for the simulated web's pages and
// for what a script's evaluate function dispatches (`new Event("change", { bubbles: true })`).

type Listener = { callback: unknown; capture: boolean; once: boolean };

/** What a listener's failure becomes: kept for the page's console, never the script's error. */
export const pageErrors: string[] = [];

export function reportPageError(thrown: unknown): void {
  let text: string;
  try {
    text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch (_) {
    text = "an error that can't be shown";
  }
  if (pageErrors.length < 50) pageErrors.push(text);
}

/** Calls a listener, and notes (never throws) what it threw or the promise it returned rejected with. */
function call(callback: unknown, self: unknown, event: Event): void {
  try {
    const result =
      typeof callback === "function" ? callback.call(self, event) : (callback as { handleEvent?: (event: Event) => unknown } | null)?.handleEvent?.(event);
    if (result && typeof (result as Promise<unknown>).then === "function") (result as Promise<unknown>).then(undefined, reportPageError);
  } catch (error) {
    reportPageError(error);
  }
}

export class EventTarget {
  #listeners = new Map<string, Listener[]>();

  addEventListener(type: string, callback: unknown, options?: boolean | { capture?: boolean; once?: boolean }): void {
    if (callback === null || callback === undefined) return;
    const capture = typeof options === "boolean" ? options : Boolean(options?.capture);
    const once = typeof options === "object" && options !== null && Boolean(options.once);
    const list = this.#listeners.get(String(type)) ?? [];
    if (list.some((l) => l.callback === callback && l.capture === capture)) return;
    list.push({ callback, capture, once });
    this.#listeners.set(String(type), list);
  }

  removeEventListener(type: string, callback: unknown, options?: boolean | { capture?: boolean }): void {
    const capture = typeof options === "boolean" ? options : Boolean(options?.capture);
    const list = this.#listeners.get(String(type));
    if (!list) return;
    const at = list.findIndex((l) => l.callback === callback && l.capture === capture);
    if (at >= 0) list.splice(at, 1);
  }

  dispatchEvent(event: Event): boolean {
    if (!(event instanceof Event)) throw new TypeError("dispatchEvent: give an Event");
    return dispatch(this, event);
  }

  /** Where an event goes after this target when it bubbles (a node's parent, the document's window). */
  eventParent(): EventTarget | null {
    return null;
  }

  /** Runs this target's listeners of `event.type` for one phase. */
  invoke(event: Event, phase: "capture" | "target" | "bubble"): void {
    const list = this.#listeners.get(event.type);
    if (!list) return;
    for (const listener of [...list]) {
      if (event.stoppedImmediately) return;
      if (phase === "capture" && !listener.capture) continue;
      if (phase === "bubble" && listener.capture) continue;
      if (listener.once) this.removeEventListener(event.type, listener.callback, listener.capture);
      call(listener.callback, this, event);
    }
  }
}

export interface EventInit {
  bubbles?: boolean;
  cancelable?: boolean;
  composed?: boolean;
}

export class Event {
  static readonly NONE = 0;
  static readonly CAPTURING_PHASE = 1;
  static readonly AT_TARGET = 2;
  static readonly BUBBLING_PHASE = 3;
  readonly type: string;
  readonly bubbles: boolean;
  readonly cancelable: boolean;
  readonly composed: boolean;
  readonly timeStamp = Date.now();
  isTrusted = false;
  target: EventTarget | null = null;
  currentTarget: EventTarget | null = null;
  eventPhase = 0;
  defaultPrevented = false;
  stopped = false;
  stoppedImmediately = false;

  constructor(type: string, init: EventInit = {}) {
    if (arguments.length === 0) throw new TypeError("Event: give the event's type");
    this.type = String(type);
    this.bubbles = Boolean(init?.bubbles);
    this.cancelable = Boolean(init?.cancelable);
    this.composed = Boolean(init?.composed);
  }

  preventDefault(): void {
    if (this.cancelable) this.defaultPrevented = true;
  }

  stopPropagation(): void {
    this.stopped = true;
  }

  stopImmediatePropagation(): void {
    this.stopped = true;
    this.stoppedImmediately = true;
  }

  composedPath(): EventTarget[] {
    return this.target ? pathOf(this.target) : [];
  }
}

type ModifierInit = EventInit & { ctrlKey?: boolean; shiftKey?: boolean; altKey?: boolean; metaKey?: boolean };

export class UIEvent extends Event {
  readonly detail: number;
  constructor(type: string, init: EventInit & { detail?: number } = {}) {
    super(type, init);
    this.detail = Number(init?.detail ?? 0);
  }
}

export class KeyboardEvent extends UIEvent {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
  readonly repeat: boolean;
  constructor(type: string, init: ModifierInit & { key?: string; code?: string; repeat?: boolean } = {}) {
    super(type, init);
    this.key = String(init?.key ?? "");
    this.code = String(init?.code ?? "");
    this.ctrlKey = Boolean(init?.ctrlKey);
    this.shiftKey = Boolean(init?.shiftKey);
    this.altKey = Boolean(init?.altKey);
    this.metaKey = Boolean(init?.metaKey);
    this.repeat = Boolean(init?.repeat);
  }
}

export class MouseEvent extends UIEvent {
  readonly button: number;
  readonly ctrlKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
  readonly clientX: number;
  readonly clientY: number;
  constructor(type: string, init: ModifierInit & { button?: number; clientX?: number; clientY?: number; detail?: number } = {}) {
    super(type, init);
    this.button = Number(init?.button ?? 0);
    this.ctrlKey = Boolean(init?.ctrlKey);
    this.shiftKey = Boolean(init?.shiftKey);
    this.altKey = Boolean(init?.altKey);
    this.metaKey = Boolean(init?.metaKey);
    this.clientX = Number(init?.clientX ?? 0);
    this.clientY = Number(init?.clientY ?? 0);
  }
}

export class InputEvent extends UIEvent {
  readonly data: string | null;
  readonly inputType: string;
  constructor(type: string, init: EventInit & { data?: string | null; inputType?: string } = {}) {
    super(type, init);
    this.data = init?.data ?? null;
    this.inputType = String(init?.inputType ?? "");
  }
}

export class FocusEvent extends UIEvent {}

export class CustomEvent extends Event {
  readonly detail: unknown;
  constructor(type: string, init: EventInit & { detail?: unknown } = {}) {
    super(type, init);
    this.detail = init?.detail ?? null;
  }
}

export class ClipboardEvent extends Event {
  readonly clipboardData: unknown;
  constructor(type: string, init: EventInit & { clipboardData?: unknown } = {}) {
    super(type, init);
    this.clipboardData = init?.clipboardData ?? null;
  }
}

/** The target, then each target the event would bubble to. */
function pathOf(target: EventTarget): EventTarget[] {
  const path: EventTarget[] = [];
  for (let at: EventTarget | null = target; at; at = at.eventParent()) path.push(at);
  return path;
}

/** Dispatches `event` at `target`: capture from the top, the target, then bubble. Whether it was not cancelled. */
export function dispatch(target: EventTarget, event: Event): boolean {
  const path = pathOf(target);
  event.target = target;
  event.stopped = false;
  event.stoppedImmediately = false;
  event.eventPhase = Event.CAPTURING_PHASE;
  for (let i = path.length - 1; i > 0 && !event.stopped; i--) {
    event.currentTarget = path[i]!;
    path[i]!.invoke(event, "capture");
  }
  if (!event.stopped) {
    event.eventPhase = Event.AT_TARGET;
    event.currentTarget = target;
    target.invoke(event, "capture");
    if (!event.stoppedImmediately) target.invoke(event, "bubble");
  }
  if (event.bubbles) {
    event.eventPhase = Event.BUBBLING_PHASE;
    for (let i = 1; i < path.length && !event.stopped; i++) {
      event.currentTarget = path[i]!;
      path[i]!.invoke(event, "bubble");
    }
  }
  event.eventPhase = Event.NONE;
  event.currentTarget = null;
  return !event.defaultPrevented;
}

/** A trusted event the page itself fires (a click, a key, a change): dispatched, and whether it was not cancelled. */
export function fire(target: EventTarget, event: Event): boolean {
  event.isTrusted = true;
  return dispatch(target, event);
}
