import { useId, type ReactNode } from "react";
import { ChevronRightIcon } from "../../components/ui/icons.tsx";

export interface AccountSectionProps {
  title: string;
  /** Short line under the title. */
  description?: string;
  open: boolean;
  onToggle(): void;
  children: ReactNode;
}

/**
 * A collapsible card of 'Mi cuenta': the header is a button with aria-expanded; the body stays mounted while
 * collapsed (only hidden), so what was typed survives closing and opening it again.
 */
export function AccountSection({ title, description, open, onToggle, children }: AccountSectionProps) {
  const bodyId = useId();
  return (
    <section className={`card account-section${open ? " account-section--open" : ""}`}>
      <h2 className="account-section__heading">
        <button type="button" className="account-section__toggle" aria-expanded={open} aria-controls={bodyId} onClick={onToggle}>
          <span className="account-section__titles">
            <span className="account-section__title">{title}</span>
            {description ? <span className="account-section__description">{description}</span> : null}
          </span>
          <ChevronRightIcon className="account-section__chevron" size={22} />
        </button>
      </h2>
      <div id={bodyId} className="account-section__body" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
