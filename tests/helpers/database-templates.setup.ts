import { makeTemplates, templatesVariable } from "./database-templates.ts";

// vitest globalSetup of the projects whose files open databases: the run's templates, made once (the second project
// of a run finds them made), removed when the run ends. The workers inherit the variable.
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[templatesVariable]) return undefined;
  const { templates, remove } = await makeTemplates(process.env.TEST_DATABASE_URL, "var/test-templates");
  process.env[templatesVariable] = JSON.stringify(templates);
  return async () => {
    delete process.env[templatesVariable];
    await remove();
  };
}
