// The host side's three functions and the text limit, as inside() was given them. They live in the
// bundle's closure: the body never sees them, and each is called only inside try/catch that drops
// whatever it threw (an outer error, even a stack overflow raised on entering it).

/** Arms a timer (`timer`, text = the delay in ms), or sends a call (`call`) or the outcome (`done`): true once done. */
export type Post = (kind: string, id: number, text: string) => unknown;
/** A call answered at once: the reply's JSON, or "" when there is none. */
export type PostSync = (text: string) => unknown;
/** `count` random bytes as 2 * count hex digits ("" when there are none). */
export type Random = (count: number) => unknown;

export let post: Post = () => false;
export let postSync: PostSync = () => "";
export let random: Random = () => "";
/** Largest text a call or the result may be (characters of JSON), and how it is said. */
export let maxText = 1024 * 1024;
export let maxTextLabel = "1 MiB";

/** Keeps the host's functions and limits for the rest of the context's life. */
export function connect(calls: { post: Post; postSync: PostSync; random: Random }, limit: number, label: string): void {
  post = calls.post;
  postSync = calls.postSync;
  random = calls.random;
  maxText = limit;
  maxTextLabel = label;
}
