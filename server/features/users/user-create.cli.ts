import { runUserCreate } from "./user-create.command.ts";
import { loadEnvFile } from "../../lib/env-file.mjs";
loadEnvFile();

// npm run user:create -- --rut <rut> --email <email> --role <0|1|2> --password <pw>  (see user-create.command.ts)
try {
  const { exitCode, lines } = await runUserCreate(process.argv.slice(2));
  for (const line of lines) (exitCode === 0 ? console.log : console.error)(line);
  process.exitCode = exitCode;
} catch (error) {
  console.error(`No se pudo crear la cuenta: ${(error as Error).message}`);
  process.exitCode = 1;
}
