import { useRef, useState, type KeyboardEvent } from "react";
import { SchedulingFrame } from "./SchedulingFrame.tsx";

export interface TabFrame {
  key: string;
  tabTitle: string;
  url: string;
}

/**
 * Several scheduling pages as tabs (WAI-ARIA tabs: arrow keys, Home and End move between tabs). A page loads when its
 * tab is first opened and stays loaded, so a booking in progress survives a look at another center.
 */
export function SchedulingTabs({ frames }: { frames: TabFrame[] }) {
  const [selectedKey, setSelectedKey] = useState(frames[0]?.key);
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set(frames[0] ? [frames[0].key] : []));
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());

  function select(key: string, focus = false) {
    setSelectedKey(key);
    setVisited((previous) => (previous.has(key) ? previous : new Set([...previous, key])));
    if (focus) tabRefs.current.get(key)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = frames.findIndex((frame) => frame.key === selectedKey);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: frames.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = frames[(target + frames.length) % frames.length];
    if (next) select(next.key, true);
  }

  return (
    <div className="scheduling__tabs">
      <div className="scheduling__tablist" role="tablist" aria-label="Centros de atención" onKeyDown={onKeyDown}>
        {frames.map((frame) => {
          const selected = frame.key === selectedKey;
          return (
            <button
              key={frame.key}
              ref={(element) => {
                if (element) tabRefs.current.set(frame.key, element);
                else tabRefs.current.delete(frame.key);
              }}
              type="button"
              role="tab"
              id={`agenda-tab-${frame.key}`}
              aria-selected={selected}
              aria-controls={`agenda-panel-${frame.key}`}
              tabIndex={selected ? 0 : -1}
              className={`scheduling__tab${selected ? " scheduling__tab--selected" : ""}`}
              onClick={() => select(frame.key)}
            >
              {frame.tabTitle}
            </button>
          );
        })}
      </div>
      {frames.map((frame) => (
        <div
          key={frame.key}
          role="tabpanel"
          id={`agenda-panel-${frame.key}`}
          aria-labelledby={`agenda-tab-${frame.key}`}
          hidden={frame.key !== selectedKey}
          className="scheduling__panel"
        >
          {visited.has(frame.key) ? <SchedulingFrame url={frame.url} title={`Agenda en línea – ${frame.tabTitle}`} /> : null}
        </div>
      ))}
    </div>
  );
}
