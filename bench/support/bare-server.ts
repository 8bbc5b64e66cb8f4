import Fastify from "fastify";

// The ceiling of the throughput bench: a bare Fastify JSON route, no plugins, no database, in its own process like
// the portal. Everything the portal does per request is measured as a fraction of this.
const app = Fastify({ logger: false });
app.get("/bare", async () => ({ status: "ok" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
console.log(`listo ${(app.server.address() as { port: number }).port}`);
