import type { ReactNode } from "react";

export interface PageTitleProps {
  title: string;
  subtitle?: string;
  /** Buttons at the right of the title (stacked under it on small screens). */
  actions?: ReactNode;
}

/** The heading of a portal page. */
export function PageTitle({ title, subtitle, actions }: PageTitleProps) {
  return (
    <div className="page-title">
      <div>
        <h1 className="page-title__heading">{title}</h1>
        {subtitle ? <p className="page-title__subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-title__actions">{actions}</div> : null}
    </div>
  );
}
