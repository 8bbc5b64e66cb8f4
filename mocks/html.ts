/** HTML that is already safe to emit as-is (built by `html` or deliberately trusted). */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function renderValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** Template tag that escapes every interpolated value unless it is already SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let result = strings[0] ?? "";
  values.forEach((value, index) => {
    result += renderValue(value) + (strings[index + 1] ?? "");
  });
  return new SafeHtml(result);
}

const baseStyles = `
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 1.5rem; color: #1f2933; background: #f7f9fb; line-height: 1.45; }
  main { max-width: 60rem; margin: 0 auto; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
  a { color: #0b5cad; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid #e1e7ee; vertical-align: top; }
  th { background: #eef2f6; font-weight: 600; }
  button { font: inherit; padding: .35rem .9rem; border: 0; border-radius: .3rem; background: #0b5cad; color: #fff; cursor: pointer; }
  button:hover { background: #094a8b; }
  input { font: inherit; padding: .35rem .5rem; border: 1px solid #b8c4d0; border-radius: .3rem; }
  label { display: inline-flex; flex-direction: column; gap: .2rem; margin-right: 1rem; font-size: .9rem; }
  .muted { color: #5f6b7a; font-size: .9rem; }
  .card { background: #fff; border: 1px solid #e1e7ee; border-radius: .5rem; padding: 1rem 1.25rem; margin-bottom: 1rem; }
  .error { border-color: #d64545; background: #fff5f5; }
`;

export function renderPage(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="es">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          ${new SafeHtml(baseStyles)}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.value;
}

export const htmlContentType = "text/html; charset=utf-8";
