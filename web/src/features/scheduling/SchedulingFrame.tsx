export interface SchedulingFrameProps {
  url: string;
  title: string;
}

/**
 * One external scheduling page. Sandboxed: it may run its scripts, post its forms and open pop-ups, but never
 * navigate the portal itself. The CSP frame-src only lets the configured scheduling origins load here.
 */
export function SchedulingFrame({ url, title }: SchedulingFrameProps) {
  return (
    <iframe
      className="scheduling__frame"
      src={url}
      title={title}
      sandbox="allow-scripts allow-forms allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
}
