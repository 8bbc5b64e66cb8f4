import type { FastifyPluginAsync } from "fastify";
import { html, htmlContentType, renderPage } from "../html.ts";

// The imaging provider's own login page, shared by every clinic (SPEC §1): the portal only links to it, so the mock
// just gives the link somewhere to land. It never checks credentials.

function renderLoginPage(message?: string): string {
  const notice = message ? html`<p class="card" role="status">${message}</p>` : html``;
  return renderPage(
    "Imagenología – Ingreso con cuenta de imagenología",
    html`<h1>Resultados de imagenología</h1>
      <p class="muted">Ingrese con la cuenta de imagenología entregada por la clínica al momento de su examen.</p>
      ${notice}
      <form method="post" action="/imagenologia/login" class="card">
        <label>Usuario <input name="usuario" required autocomplete="username" /></label>
        <label>Contraseña <input name="clave" type="password" required autocomplete="current-password" /></label>
        <p><button type="submit">Ingresar</button></p>
      </form>`,
  );
}

export const imagingLoginMock: FastifyPluginAsync = async (app) => {
  // The form posts urlencoded fields; the mock reads none of them.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, _body, done) => done(null, {}));
  app.get("/imagenologia/login", async (_request, reply) =>
    reply.type(htmlContentType).header("Cache-Control", "no-store").send(renderLoginPage()),
  );
  app.post("/imagenologia/login", async (_request, reply) =>
    reply
      .type(htmlContentType)
      .header("Cache-Control", "no-store")
      .send(renderLoginPage("Simulador: este sitio no valida cuentas ni guarda datos.")),
  );
};
