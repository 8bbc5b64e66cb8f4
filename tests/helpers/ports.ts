import { readFileSync } from "node:fs";
import { connect, createServer } from "node:net";

/**
 * The ports freePort hands out: below the range the system draws outgoing connections' and listen(0)'s ports from
 * (Linux: 32768–60999; macOS: 49152–65535). A port taken by listen(0) and released was free only a moment: in the
 * seconds before the process given it listened, the system could give it to another test's connection (CI once failed
 * so, EADDRINUSE on `npm start`'s portal port). Below that range only another freePort could pick it, and each vitest
 * worker has a slice of its own.
 */
function candidatePorts(): { first: number; count: number } {
  let ephemeralLow = 32_768;
  try {
    ephemeralLow = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // Not Linux: 32768 is below macOS's range too.
  }
  const first = 20_000;
  const last = Math.min(ephemeralLow, 32_768) - 1;
  const workers = 8;
  const sliceSize = Math.floor((last - first + 1) / workers);
  const worker = Number(process.env.VITEST_POOL_ID ?? process.pid) % workers;
  return { first: first + worker * sliceSize, count: sliceSize };
}

// The system's range does not change while tests run: read once per process.
const candidates = candidatePorts();

const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A loopback port free now and not handed out before in this process, for a process or server a test starts. */
export async function freePort(): Promise<number> {
  const { first, count } = candidates;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = first + Math.floor(Math.random() * count);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`No hay un puerto libre entre ${first} y ${first + count - 1}`);
}

/** Whether something accepts connections on a loopback port (e.g. a process a test stopped should not). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
