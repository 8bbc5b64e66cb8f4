import { html, renderPage } from "./html.ts";
import { schedulingCenters } from "./scheduling/scheduling-mock.ts";

export function renderIndexPage(): string {
  const centerRows = schedulingCenters.map(
    (center) =>
      html`<tr>
        <td>${center.name}</td>
        <td><a href="/agenda?externalCenterId=${encodeURIComponent(center.externalCenterId)}">${center.externalCenterId}</a></td>
      </tr>`,
  );
  return renderPage(
    "Simuladores de Portal Pacientes",
    html`<h1>Simuladores de Portal Pacientes</h1>
      <p class="muted">Proveedores externos simulados para desarrollo y pruebas.</p>
      <h2>Correo</h2>
      <p class="card"><a href="/mail">Correos recibidos</a> — todo lo enviado por SMTP a este simulador.</p>
      <h2>Pago con tarjeta</h2>
      <p class="card"><a href="/webpay">Webpay Plus</a> — transacciones recibidas y tarjetas de prueba.</p>
      <h2>Agendamiento de horas</h2>
      <table>
        <thead>
          <tr>
            <th>Centro</th>
            <th>Página de agendamiento</th>
          </tr>
        </thead>
        <tbody>
          ${centerRows}
        </tbody>
      </table>`,
  );
}
