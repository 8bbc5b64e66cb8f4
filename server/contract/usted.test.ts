import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 33 and notes/ux-writing.md "Voice": the portal's own Spanish texts speak usted. This scans the texts of the
// web and the server (screens, messages, mails) for common tú forms, so a new text in tú fails here. SPEC.md quotes
// three texts in tú; they are requirements word for word, and the only ones allowed.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scannedFolders = ["web/src", "server"];
const skippedFolders = new Set(["node_modules", "generated"]);

/** SPEC.md's own texts in tú (§4 first login, §8 success modals): kept word for word. */
const specQuotedTexts = [
  "Antes de comenzar, debes cambiar tu contraseña",
  "Se han guardado tus datos satisfactoriamente",
  "Hemos enviado el informe a tu dirección de correo electrónico.",
];

// Words that are tú wherever they appear, and imperatives that are tú when they start a sentence ('Ingresa su Rut'
// is tú; 'con la que ingresa al portal' is usted).
const tuWords =
  /\b(tienes|puedes|debes|quieres|necesitas|eres|estás|tu|tus|te|ti|contigo|tuyo|tuya|tuyos|tuyas|olvidaste|recibiste|hiciste|ingresaste|podrás|deberás|recibirás|tendrás)\b/iu;
const tuImperatives =
  /(^|[.!?¡¿:]\s*)(ingresa|revisa|intenta|vuelve|escribe|elige|selecciona|recuerda|contacta|haz|completa|verifica|cambia|usa|accede|confirma|descarga|presiona|pulsa|espera|acepta)\b/u;

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : sourceFiles(relative);
    return /\.(ts|tsx|html)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** The string literals and JSX texts of a source file, without its comments. */
function textsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const literals = code.match(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g) ?? [];
  const jsxTexts = [...code.matchAll(/>([^<>{}]+)</g)].map((match) => match[1]!).filter((text) => /\p{L}/u.test(text));
  return [...literals.map((literal) => literal.slice(1, -1)), ...jsxTexts];
}

function speaksTu(text: string): boolean {
  let rest = text;
  for (const quoted of specQuotedTexts) rest = rest.split(quoted).join(" ");
  return tuWords.test(rest) || tuImperatives.test(rest);
}

describe("the portal's Spanish texts", () => {
  it("recognise tú forms, and let SPEC's quoted texts and usted through", () => {
    expect(speaksTu("Revisa tu correo")).toBe(true);
    expect(speaksTu("Si no tienes cuenta, pídela en la clínica.")).toBe(true);
    expect(speaksTu("Listo. Ingresa con tu nueva contraseña")).toBe(true);
    expect(speaksTu("Revise su correo")).toBe(false);
    expect(speaksTu("Actualice la contraseña con la que ingresa al portal")).toBe(false);
    expect(speaksTu("Antes de comenzar, debes cambiar tu contraseña")).toBe(false);
  });

  it("speak usted everywhere but in SPEC's own quoted texts", () => {
    const files = scannedFolders.flatMap(sourceFiles);
    // The scan reaches the screens and the mails: SPEC's quoted tú texts are among what it reads.
    const texts = files.flatMap((file) => textsOf(readFileSync(path.join(root, file), "utf8")));
    for (const quoted of specQuotedTexts) expect(texts.some((text) => text.includes(quoted))).toBe(true);
    expect(texts.some((text) => text.includes("Revise su correo"))).toBe(true);
    const found = files.flatMap((file) =>
      textsOf(readFileSync(path.join(root, file), "utf8"))
        .filter(speaksTu)
        .map((text) => `${file}: ${text.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
