// A service far away, made on loopback: `node bench/far-path.mjs TARGET RTT DIR` serves
// https://localhost:<port> in front of the plain-http TARGET, along a path with a round trip of RTT
// ms: a new connection carries data one round trip after it was opened (TCP's handshake), and every
// byte takes half a round trip each way, so TLS's handshake costs its round trip too. Its
// certificate (self-signed, for localhost) is made with openssl into DIR. Prints
// {"url", "certFile"} on one line, then serves until killed.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";

const [target, rtt, dir] = process.argv.slice(2);
const certFile = path.join(dir, "far-cert.pem");
const keyFile = path.join(dir, "far-key.pem");
execFileSync(
  "openssl",
  ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1"].concat([
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost",
  ]),
  { stdio: "ignore" },
);
const oneWay = Number(rtt) / 2;
const upstream = new URL(target);

/**
 * Sends what `from` receives on to `to`, each piece `oneWay` ms after it arrived but never before
 * `notBefore` + `oneWay` (and in order).
 */
function carry(from, to, notBefore) {
  const queue = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    setTimeout(pump, Math.max(0, queue[0].at - Date.now()));
  };
  const pump = () => {
    scheduled = false;
    while (queue.length && queue[0].at <= Date.now()) {
      const { chunk } = queue.shift();
      if (chunk) to.write(chunk);
      else to.end();
    }
    if (queue.length) schedule();
  };
  const push = (chunk) => {
    queue.push({ chunk, at: Math.max(Date.now(), notBefore) + oneWay });
    if (!scheduled) schedule();
  };
  from.on("data", push);
  from.on("end", () => push(undefined));
  from.on("error", () => to.destroy());
}

// Small pieces go at once on every hop (no Nagle): the delay is the path's, not a stall of ours.
const front = tls.createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (secure) => {
  const plain = net.connect({ host: upstream.hostname, port: Number(upstream.port), noDelay: true });
  secure.setNoDelay(true);
  secure.pipe(plain).pipe(secure);
  secure.on("error", () => plain.destroy());
  plain.on("error", () => secure.destroy());
});
front.listen(0, "127.0.0.1", () => {
  const lag = net.createServer({ noDelay: true }, (near) => {
    const opened = Date.now();
    const far = net.connect({ host: "127.0.0.1", port: front.address().port, noDelay: true });
    carry(near, far, opened + Number(rtt));
    carry(far, near, 0);
  });
  lag.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: `https://localhost:${lag.address().port}`, certFile })));
});
