// Route access declarations (HELPERS convention): every REST route says who may call it in `config.access`; the
// security suite reads it from the route table. The handler still enforces it.
export type RouteAccess = "public" | "user" | "patient" | "staff" | "admin";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
