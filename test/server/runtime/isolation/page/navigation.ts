// Where a page asks to go: a link followed or a form submitted. The page cannot load another
// document itself (the sandbox answers every address), so a move to another document is noted
// here for the sandbox to make; a move within the document (a new #hash) happens at once.

type Go = (url: string) => void;

let go: Go = () => {};

/** Called by the window once it exists: how a link or a form moves the page. */
export function onNavigate(handler: Go): void {
  go = handler;
}

/** Moves the page to `url` (absolute), as a followed link does. */
export function navigate(url: string): void {
  go(url);
}
