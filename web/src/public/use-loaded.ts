import { useEffect, useReducer, type ComponentType } from "react";

// Components whose code loads on demand, without React.lazy: React holds back the reveal of a Suspense boundary for
// up to 300 ms after its fallback showed (its fallback throttling), which the first paint of every signed-in page paid
// in full although the app's code was already there (Lighthouse on my-bills: the main thread idle ≈ 250 ms before
// the first paint; issue 14).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one registry for components with different props
type AnyComponent = ComponentType<any>;
export type ComponentLoader = () => Promise<{ default: AnyComponent }>;

const loaded = new Map<ComponentLoader, AnyComponent>();
const failed = new Set<ComponentLoader>();

/** `load`, known to give `component` (already in the bundle): it renders at once. */
export function alreadyLoaded(component: AnyComponent): ComponentLoader {
  const load: ComponentLoader = () => Promise.resolve({ default: component });
  loaded.set(load, component);
  return load;
}

/** The component `load` gives, once its module is here (undefined until then); `failed` if it could not load. */
export function useLoaded(load: ComponentLoader | undefined): { component?: AnyComponent; failed: boolean } {
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    if (!load || loaded.has(load) || failed.has(load)) return;
    let current = true;
    load()
      .then(
        (module) => loaded.set(load, module.default),
        () => failed.add(load),
      )
      .finally(() => current && rerender());
    return () => {
      current = false;
    };
  }, [load]);
  return { component: load && loaded.get(load), failed: !!load && failed.has(load) };
}
