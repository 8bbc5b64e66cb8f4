import type { HTMLAttributes, ReactNode } from "react";

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, "title"> {
  /** Optional heading inside the card. */
  title?: ReactNode;
  /** Right side of the heading row (e.g. a button). */
  actions?: ReactNode;
}

/** White panel with a soft border; the basic surface of every screen. */
export function Card({ title, actions, className, children, ...props }: CardProps) {
  return (
    <section className={["card", className ?? ""].filter(Boolean).join(" ")} {...props}>
      {title || actions ? (
        <header className="card__header">
          {title ? <h2 className="card__title">{title}</h2> : <span />}
          {actions}
        </header>
      ) : null}
      {children}
    </section>
  );
}
