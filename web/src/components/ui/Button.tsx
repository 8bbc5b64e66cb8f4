import type { ButtonHTMLAttributes } from "react";

export type ButtonVariant = "primary" | "secondary" | "danger" | "link";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Stretches the button to the width of its container. */
  block?: boolean;
}

/** The portal's button; `type` defaults to "button" so only submit buttons submit. */
export function Button({ variant = "primary", block = false, className, type = "button", ...props }: ButtonProps) {
  const classes = ["btn", `btn--${variant}`, block ? "btn--block" : "", className ?? ""].filter(Boolean).join(" ");
  return <button type={type} className={classes} {...props} />;
}
