import { html, renderPage, SafeHtml } from "../html.ts";
import type { CaughtMail } from "./mail-store.ts";

const dateFormat = new Intl.DateTimeFormat("es-CL", {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZone: "America/Santiago",
});

function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

function formatSender(mail: CaughtMail): string {
  return mail.fromName ? `${mail.fromName} <${mail.from}>` : mail.from;
}

export function renderMailListPage(messages: CaughtMail[]): string {
  const rows = messages.map(
    (mail) =>
      html`<tr>
        <td>${formatDate(mail.date)}</td>
        <td>${mail.to}</td>
        <td><a href="/mail/${encodeURIComponent(mail.id)}">${mail.subject || "(sin asunto)"}</a></td>
      </tr>`,
  );
  const content =
    messages.length === 0
      ? html`<p class="card">Aún no se han recibido correos.</p>`
      : html`<table>
          <thead>
            <tr>
              <th>Fecha</th>
              <th>Para</th>
              <th>Asunto</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>`;
  return renderPage(
    "Correos recibidos",
    html`<h1>Correos recibidos</h1>
      <p class="muted">${messages.length} correo(s), el más reciente primero. <a href="/mail">Actualizar</a> · <a href="/">Inicio</a></p>
      ${content}`,
  );
}

// Links without their own target replace the whole viewer page: the sandbox blocks navigation inside the frame otherwise.
function withLinksOpeningInViewerTab(mailHtml: string): string {
  const base = '<base target="_top">';
  const head = /<head\b[^>]*>/i.exec(mailHtml) ?? /^\s*<!doctype[^>]*>/i.exec(mailHtml);
  if (!head) return base + mailHtml;
  const insertAt = head.index + head[0].length;
  return mailHtml.slice(0, insertAt) + base + mailHtml.slice(insertAt);
}

const urlPattern = /https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]]/g;

function linkify(text: string): SafeHtml {
  const parts: SafeHtml[] = [];
  let lastIndex = 0;
  for (const match of text.matchAll(urlPattern)) {
    parts.push(html`${text.slice(lastIndex, match.index)}<a href="${match[0]}" rel="noreferrer">${match[0]}</a>`);
    lastIndex = match.index + match[0].length;
  }
  parts.push(html`${text.slice(lastIndex)}`);
  return html`${parts}`;
}

export function renderMailDetailPage(mail: CaughtMail): string {
  const htmlBody = mail.html
    ? html`<iframe
        title="Contenido HTML del correo"
        sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
        referrerpolicy="no-referrer"
        style="width: 100%; height: 32rem; border: 1px solid #e1e7ee; border-radius: .5rem; background: #fff;"
        srcdoc="${withLinksOpeningInViewerTab(mail.html)}"
      ></iframe>`
    : html`<p class="card muted">Este correo no tiene versión HTML.</p>`;
  const textBody = mail.text
    ? html`<pre class="card" style="white-space: pre-wrap; overflow-wrap: anywhere;">${linkify(mail.text)}</pre>`
    : html`<p class="card muted">Este correo no tiene versión de texto.</p>`;

  return renderPage(
    mail.subject || "(sin asunto)",
    html`<p class="muted"><a href="/mail">← Correos recibidos</a></p>
      <h1>${mail.subject || "(sin asunto)"}</h1>
      <table class="card">
        <tr>
          <th>De</th>
          <td>${formatSender(mail)}</td>
        </tr>
        <tr>
          <th>Para</th>
          <td>${mail.to}</td>
        </tr>
        <tr>
          <th>Asunto</th>
          <td>${mail.subject}</td>
        </tr>
        <tr>
          <th>Fecha</th>
          <td>${formatDate(mail.date)}</td>
        </tr>
      </table>
      <h2>Versión HTML</h2>
      ${htmlBody}
      <h2>Versión de texto</h2>
      ${textBody}`,
  );
}

export function renderMailNotFoundPage(): string {
  return renderPage(
    "Correo no encontrado",
    html`<h1>Correo no encontrado</h1>
      <p class="card error">El correo solicitado no existe o ya fue eliminado.</p>
      <p><a href="/mail">Volver a los correos recibidos</a></p>`,
  );
}
