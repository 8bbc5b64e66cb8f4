import { Card } from "./Card.tsx";
import { PageTitle } from "./PageTitle.tsx";

/** An honest page for a portal section whose screen is not part of this release yet (the route exists). */
export function UnavailableSection({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <>
      <PageTitle title={title} subtitle={subtitle} />
      <Card>
        <p>Esta sección del portal aún no está disponible.</p>
      </Card>
    </>
  );
}
