/**
 * The part of the `debug` package (oclif's debug lines under DEBUG=...) the CLI touches: the one
 * function every debugger writes through. The package ships no types of its own.
 */
declare module "debug" {
  interface Debug {
    log: (...args: unknown[]) => unknown;
  }
  const debug: Debug;
  export default debug;
}
