// `npm run sandbox -- --port N`: the reference server over real HTTP with a fresh seeded store, for
// trying the CLI by hand and for end-to-end tests. Prints exactly two lines on stdout (the address
// and the demo key, ready for `export`), then serves until SIGINT/SIGTERM.
import { createHandlers } from "./handlers.js";
import { startHttpServer } from "./http.js";
import { parseSandboxArgs, UsageError } from "./sandbox-options.js";
import { createStore } from "./store.js";

async function main(): Promise<void> {
  let options;
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sandbox: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const store = createStore({ apiKey: process.env.REDUCK_SANDBOX_API_KEY || undefined });
  let server;
  try {
    server = await startHttpServer({ handlers: createHandlers(store), port: options.port, host: "127.0.0.1" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "EADDRINUSE"
        ? `port ${options.port} is already in use: stop what holds it or pick another with --port N`
        : code === "EACCES"
          ? `not allowed to listen on port ${options.port}: pick a port above 1023 with --port N`
          : (error as Error).message;
    process.stderr.write(`sandbox: ${reason}\n`);
    process.exit(1);
  }

  process.stdout.write(`REDUCK_API_URL=${server.url}\nREDUCK_API_KEY=${store.demo.apiKey}\n`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: error while closing: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

void main();
