import { html, renderPage, SafeHtml } from "../html.ts";

// Pages of the ClaveÚnica mock, in the style of the State's login (blue #0F69C4 bar, 'RUN' and 'ClaveÚnica').

const claveUnicaStyles = new SafeHtml(`<style>
  .cu-bar { background: #0F69C4; color: #fff; padding: .75rem 1rem; border-radius: .4rem; font-weight: 700; }
  .cu-form label { display: flex; margin: 0 0 .75rem; }
  .cu-form button { background: #0F69C4; }
  .cu-cancel { background: #fff !important; color: #0F69C4; border: 1px solid #0F69C4 !important; }
</style>`);

export function renderLoginPage(options: { uid: string; basePath: string; clientName: string; message?: string; run?: string }): string {
  const notice = options.message ? html`<p class="card error" role="alert">${options.message}</p>` : html``;
  const action = `${options.basePath}/interaccion/${encodeURIComponent(options.uid)}`;
  return renderPage(
    "ClaveÚnica – Iniciar sesión",
    html`${claveUnicaStyles}
      <p class="cu-bar">ClaveÚnica · Gobierno de Chile (simulador)</p>
      <h1>Iniciar sesión con ClaveÚnica</h1>
      <p class="muted">Para ingresar a ${options.clientName}.</p>
      ${notice}
      <form method="post" action="${action}" class="card cu-form">
        <label>RUN <input name="run" required autocomplete="username" inputmode="text" value="${options.run ?? ""}" /></label>
        <label>ClaveÚnica <input name="password" type="password" required autocomplete="current-password" /></label>
        <p><button type="submit">Continuar</button></p>
      </form>
      <form method="post" action="${action}/cancelar">
        <p><button type="submit" class="cu-cancel">Cancelar y volver</button></p>
      </form>`,
  );
}

export function renderLogoutPage(form: string): string {
  return renderPage(
    "ClaveÚnica – Cerrar sesión",
    html`${claveUnicaStyles}
      <p class="cu-bar">ClaveÚnica · Gobierno de Chile (simulador)</p>
      <h1>¿Cerrar también su sesión de ClaveÚnica?</h1>
      ${new SafeHtml(form)}
      <p><button type="submit" form="op.logoutForm" name="logout" value="yes">Sí, cerrar sesión</button></p>
      <p><button type="submit" form="op.logoutForm" class="cu-cancel">No, mantenerla</button></p>`,
  );
}

export function renderLoggedOutPage(): string {
  return renderPage(
    "ClaveÚnica – Sesión cerrada",
    html`${claveUnicaStyles}
      <p class="cu-bar">ClaveÚnica · Gobierno de Chile (simulador)</p>
      <h1>Sesión de ClaveÚnica cerrada</h1>`,
  );
}
