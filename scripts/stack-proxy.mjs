// The round-robin proxy of `npm run stack` (the Caddy of docker-compose.yml, for machines without Docker): spreads
// requests over the portal instances, takes an instance out of rotation while its /readyz fails or it refuses
// connections, retries a request on another instance when the first one could not have acted on it (connection
// refused) or when it is a GET/HEAD, and answers 404 to /metrics as the production proxy does.
import http from "node:http";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

// Idle connections kept as Caddy keeps them (deploy/Caddyfile): a client's for 5 minutes (its server idle timeout), a
// replica's for 2 minutes (its reverse_proxy transport's keepalive), less than a replica keeps its own
// (server/app.ts, IDLE_CONNECTION_MS), so the proxy never reuses a connection the replica has just closed.
export const CLIENT_IDLE_MS = 5 * 60_000;
export const UPSTREAM_IDLE_MS = 2 * 60_000;

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: a proxy answers for its own. The
 * replica's "Keep-Alive: timeout=…" passed on told clients the proxy kept idle connections as long as the replica
 * did, while it closed them after 5 s: a client reusing one then lost its request ("other side closed", 6 of 58,921
 * in a soak's warm-up). A request's Transfer-Encoding goes too: the proxy sends the whole body with its length.
 */
function endToEnd(headers) {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", ...named]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name.toLowerCase())));
}

const json = (res, status, message) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify({ statusCode: status, error: http.STATUS_CODES[status], message }));
};

/**
 * @param {{ port: number, host?: string, backends: Array<{ name: string, host: string, port: number }>, checkMs?: number,
 *   log?: (line: string) => void }} options
 * @returns {Promise<{ close(): Promise<void>, backends: Array<{ name: string, healthy: boolean }> }>}
 */
export async function startProxy({ port, host = "127.0.0.1", backends, checkMs = 1000, log = () => {} }) {
  const pool = backends.map((backend) => ({ ...backend, healthy: true }));
  // `timeout` closes a pooled connection once idle that long (only idle ones: see Node's http.Agent).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: UPSTREAM_IDLE_MS });
  let turn = 0;

  const setHealth = (backend, healthy) => {
    if (backend.healthy !== healthy) log(`${backend.name} ${healthy ? "vuelve a la rotación" : "sale de la rotación"}`);
    backend.healthy = healthy;
  };
  const check = (backend) => {
    const probe = http.get({ host: backend.host, port: backend.port, path: "/readyz", agent: false, timeout: 2000 }, (res) => {
      setHealth(backend, res.statusCode === 200);
      res.resume();
    });
    probe.on("timeout", () => probe.destroy(new Error("timeout")));
    probe.on("error", () => setHealth(backend, false));
  };
  const timer = setInterval(() => pool.forEach(check), checkMs);
  timer.unref();

  /** The next healthy instance not tried yet; an unhealthy one only when no healthy one is left. */
  const pick = (tried) => {
    const candidates = pool.filter((backend) => !tried.has(backend));
    const healthy = candidates.filter((backend) => backend.healthy);
    const from = healthy.length ? healthy : candidates;
    if (!from.length) return null;
    return from[turn++ % from.length];
  };

  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://proxy").pathname === "/metrics") return json(res, 404, "Recurso no encontrado");
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        json(res, 413, "La solicitud supera el tamaño máximo permitido");
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
  });

  function forward(req, res, body, tried) {
    const backend = pick(tried);
    if (!backend) return json(res, 502, "El portal no está disponible, por favor intente más tarde");
    tried.add(backend);
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      {
        host: backend.host,
        port: backend.port,
        method: req.method,
        path: req.url,
        agent,
        headers: { ...endToEnd(req.headers), "x-forwarded-for": forwardedFor, "x-forwarded-proto": "http", "content-length": body.length },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (res.headersSent) return res.destroy(error);
      const neverReached = error.code === "ECONNREFUSED";
      if (neverReached || error.code === "ECONNRESET") setHealth(backend, false);
      const safeToRepeat = neverReached || req.method === "GET" || req.method === "HEAD";
      if (safeToRepeat && tried.size < pool.length) return forward(req, res, body, tried);
      json(res, 502, "El portal no está disponible, por favor intente más tarde");
    });
    upstream.end(body);
  }

  server.keepAliveTimeout = CLIENT_IDLE_MS;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    backends: pool,
    close: () =>
      new Promise((resolve) => {
        clearInterval(timer);
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
